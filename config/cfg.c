// SPDX-License-Identifier: GPL-2.0
/* ptoprc: defaults, parse (all or nothing), atomic save. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cfg.h"
#include "lib/src.h"

const char *const cfg_colors_name[CFG_COLORS__COUNT] = {
	[CFG_COLORS_DEFAULT] = "default",
	[CFG_COLORS_MONO] = "mono",
};

const char *const cfg_meter_name[CFG_M__COUNT] = {
	[CFG_M_CPU] = "cpu", [CFG_M_MEM] = "mem", [CFG_M_SWAP] = "swap",
	[CFG_M_TASKS] = "tasks", [CFG_M_LOAD] = "load",
	[CFG_M_UPTIME] = "uptime",
};
const char *const cfg_meter_style_name[CFG_MS__COUNT] = {
	[CFG_MS_BAR] = "bar", [CFG_MS_TEXT] = "text",
};

bool cfg_meter_has_bar(int id)
{
	return id == CFG_M_CPU || id == CFG_M_MEM || id == CFG_M_SWAP;
}

int cfg_meters_parse(const char *list, struct cfg_meter *out, char *why,
		     size_t wlen)
{
	char buf[256], *tok, *save = NULL, *colon;
	bool seen[CFG_M__COUNT] = { false };
	int n = 0, id, st;

	if (snprintf(buf, sizeof(buf), "%s", list) >= (int)sizeof(buf)) {
		snprintf(why, wlen, "meter list too long");
		return -EINVAL;
	}
	for (tok = strtok_r(buf, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		colon = strchr(tok, ':');
		if (colon)
			*colon++ = '\0';
		for (id = 0; id < CFG_M__COUNT; id++)
			if (!strcmp(tok, cfg_meter_name[id]))
				break;
		if (id == CFG_M__COUNT) {
			snprintf(why, wlen, "unknown meter '%.32s' (cpu, mem, swap, tasks, load, uptime)",
				 tok);
			return -EINVAL;
		}
		if (seen[id]) {
			snprintf(why, wlen, "meter '%s' listed twice", tok);
			return -EINVAL;
		}
		seen[id] = true;
		st = cfg_meter_has_bar(id) ? CFG_MS_BAR : CFG_MS_TEXT;
		if (colon) {
			for (st = 0; st < CFG_MS__COUNT; st++)
				if (!strcmp(colon, cfg_meter_style_name[st]))
					break;
			if (st == CFG_MS__COUNT) {
				snprintf(why, wlen, "unknown style '%.32s' for meter %s (bar or text)",
					 colon, tok);
				return -EINVAL;
			}
			if (st == CFG_MS_BAR && !cfg_meter_has_bar(id)) {
				snprintf(why, wlen, "meter %s has no bar (text only)",
					 tok);
				return -EINVAL;
			}
		}
		out[n].id = id;
		out[n++].style = st;
	}
	return n;
}

void cfg_meters_format(const struct cfg_meter *m, int n, char *buf,
		       size_t len)
{
	size_t pos = 0;
	int i;

	buf[0] = '\0';
	for (i = 0; i < n && pos < len; i++)
		pos += snprintf(buf + pos, len - pos, "%s%s%s%s", i ? "," : "",
				cfg_meter_name[m[i].id],
				cfg_meter_has_bar(m[i].id) ? ":" : "",
				cfg_meter_has_bar(m[i].id) ?
				cfg_meter_style_name[m[i].style] : "");
}

/* htop's default: CPUs, memory, swap on the left; tasks, load, uptime */
static const struct cfg_meter default_meters[2][3] = {
	{ { CFG_M_CPU, CFG_MS_BAR }, { CFG_M_MEM, CFG_MS_BAR },
	  { CFG_M_SWAP, CFG_MS_BAR } },
	{ { CFG_M_TASKS, CFG_MS_TEXT }, { CFG_M_LOAD, CFG_MS_TEXT },
	  { CFG_M_UPTIME, CFG_MS_TEXT } },
};

void cfg_defaults(struct cfg *c)
{
	memset(c, 0, sizeof(*c));
	memcpy(c->mcol[0], default_meters[0], sizeof(default_meters[0]));
	memcpy(c->mcol[1], default_meters[1], sizeof(default_meters[1]));
	c->nmcol[0] = c->nmcol[1] = 3;
	c->all_style = CFG_MS_BAR;
	c->sort_id = PTOP_COL_TOTAL;
	c->delay_s = 2.0;
	c->show_exited = true;
	c->meters = true;
	c->fkeys = true;
	snprintf(c->source, sizeof(c->source), "auto");
}

int cfg_default_path(char *buf, size_t len)
{
	const char *xdg = getenv("XDG_CONFIG_HOME");
	const char *home = getenv("HOME");
	int n;

	if (xdg && xdg[0] == '/')
		n = snprintf(buf, len, "%s/ptop/ptoprc", xdg);
	else if (home && home[0])
		n = snprintf(buf, len, "%s/.config/ptop/ptoprc", home);
	else
		return -ENOENT;
	return n < 0 || (size_t)n >= len ? -ENAMETOOLONG : 0;
}

int cfg_system_paths(char (*paths)[CFG_PATH_MAX], int max)
{
	const char *etc = getenv("PTOP_SYSCONFDIR");
	const char *xdg = getenv("XDG_CONFIG_DIRS");
	char dirs[CFG_PATH_MAX], *d[32], *tok, *save = NULL;
	int n = 0, nd = 0;

	if (!etc || !etc[0])
		etc = "/etc";
	if (n < max && snprintf(paths[n], CFG_PATH_MAX, "%s/ptoprc", etc) <
	    CFG_PATH_MAX)
		n++;
	/* XDG: the first directory is the most important one: read last */
	snprintf(dirs, sizeof(dirs), "%s", xdg && xdg[0] ? xdg : "/etc/xdg");
	for (tok = strtok_r(dirs, ":", &save); tok && nd < 32;
	     tok = strtok_r(NULL, ":", &save))
		if (tok[0] == '/')	/* relative entries are invalid */
			d[nd++] = tok;
	while (nd-- > 0 && n < max)
		if (snprintf(paths[n], CFG_PATH_MAX, "%s/ptop/ptoprc", d[nd]) <
		    CFG_PATH_MAX)
			n++;
	return n;
}

static char *trim(char *s)
{
	char *e;

	while (*s == ' ' || *s == '\t')
		s++;
	e = s + strlen(s);
	while (e > s && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\r' ||
			 e[-1] == '\n'))
		*--e = '\0';
	return s;
}

static int parse_bool(const char *v, bool *out)
{
	if (!strcmp(v, "0"))
		*out = false;
	else if (!strcmp(v, "1"))
		*out = true;
	else
		return -EINVAL;
	return 0;
}

/*
 * One key=value: 0; CFG_WARN with a warning in why (a key or version of a
 * newer ptop: ignored); -EINVAL with the reason in why.
 */
#define CFG_WARN 1
static int parse_kv(struct cfg *c, const char *key, const char *val,
		    char *why, size_t wlen)
{
	char bad[64], *end;
	double d;
	long l;
	int n;

	if (!strcmp(key, "version")) {
		errno = 0;
		l = strtol(val, &end, 10);
		if (errno || end == val || *end || l < 1) {
			snprintf(why, wlen, "unsupported version '%s' (this ptop reads version %d)",
				 val, CFG_VERSION);
			return -EINVAL;
		}
		if (l > CFG_VERSION) {
			snprintf(why, wlen, "version %ld is newer than this ptop's (%d): its keys this ptop does not know are ignored",
				 l, CFG_VERSION);
			return CFG_WARN;
		}
	} else if (!strcmp(key, "columns")) {
		n = ptop_col_parse_list(val, c->cols, CFG_MAX_COLS, bad,
					sizeof(bad));
		if (n == -EEXIST) {
			snprintf(why, wlen, "column '%s' listed twice", bad);
			return -EINVAL;
		}
		if (n < 0) {
			snprintf(why, wlen, "unknown column '%s' (see ptop --list-columns)",
				 bad);
			return -EINVAL;
		}
		c->ncols = n;
	} else if (!strcmp(key, "sort")) {
		bool asc = val[0] == '-';
		int id = ptop_col_find(val + asc);

		if (id < 0) {
			snprintf(why, wlen, "unknown sort column '%s'", val + asc);
			return -EINVAL;
		}
		c->sort_id = id;
		c->sort_asc = asc;
	} else if (!strcmp(key, "delay")) {
		errno = 0;
		d = strtod(val, &end);
		if (errno || end == val || *end || !(d >= 0.01 && d <= 86400)) {
			snprintf(why, wlen, "bad delay '%s' (0.01 to 86400 seconds)",
				 val);
			return -EINVAL;
		}
		c->delay_s = d;
	} else if (!strcmp(key, "tree") || !strcmp(key, "threads")) {
		if (parse_bool(val, key[0] == 't' && key[1] == 'r' ?
			       &c->tree : &c->threads)) {
			snprintf(why, wlen, "bad value '%s' for %s (0 or 1)",
				 val, key);
			return -EINVAL;
		}
	} else if (!strcmp(key, "exited") || !strcmp(key, "kthreads") ||
		   !strcmp(key, "meters") || !strcmp(key, "fkeys")) {
		bool b;

		if (parse_bool(val, &b)) {
			snprintf(why, wlen, "bad value '%s' for %s (0 or 1)",
				 val, key);
			return -EINVAL;
		}
		if (key[0] == 'e')
			c->show_exited = b;
		else if (key[0] == 'k')
			c->hide_kthreads = !b;
		else if (key[0] == 'f')
			c->fkeys = b;
		else
			c->meters = b;
	} else if (!strcmp(key, "meters_left") || !strcmp(key, "meters_right")) {
		struct cfg_meter m[CFG_M__COUNT];
		int col = key[7] == 'r', o = !col, i, j, k;

		n = cfg_meters_parse(val, m, why, wlen);
		if (n < 0)
			return n;
		memcpy(c->mcol[col], m, n * sizeof(m[0]));
		c->nmcol[col] = n;
		/* a meter is in one column: listed here, it leaves the other */
		for (i = k = 0; i < c->nmcol[o]; i++) {
			for (j = 0; j < n; j++)
				if (m[j].id == c->mcol[o][i].id)
					break;
			if (j == n)
				c->mcol[o][k++] = c->mcol[o][i];
		}
		c->nmcol[o] = k;
	} else if (!strcmp(key, "meter_all")) {
		for (n = 0; n < CFG_MS__COUNT; n++)
			if (!strcmp(val, cfg_meter_style_name[n]))
				break;
		if (n == CFG_MS__COUNT) {
			snprintf(why, wlen, "bad meter_all '%s' (bar or text)", val);
			return -EINVAL;
		}
		c->all_style = n;
	} else if (!strcmp(key, "colors")) {
		for (n = 0; n < CFG_COLORS__COUNT; n++)
			if (!strcmp(val, cfg_colors_name[n]))
				break;
		if (n == CFG_COLORS__COUNT) {
			snprintf(why, wlen, "bad colors '%s' (default or mono)", val);
			return -EINVAL;
		}
		c->colors = n;
	} else if (!strcmp(key, "source")) {
		if (strcmp(val, "auto") && !ptop_src_find(val)) {
			snprintf(why, wlen, "unknown source '%s' (see ptop --list-sources)",
				 val);
			return -EINVAL;
		}
		snprintf(c->source, sizeof(c->source), "%s", val);
	} else {
		/* a newer ptop's key: its file stays usable here */
		snprintf(why, wlen, "unknown key '%.64s' (from a newer ptop?): ignored",
			 key);
		return CFG_WARN;
	}
	return 0;
}

/* Printable text only: a NUL or control byte means a binary file. */
static bool is_text(const char *s, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		unsigned char ch = s[i];

		if (ch < 0x20 && ch != '\t' && ch != '\n' && ch != '\r')
			return false;
		if (ch == 0x7f)
			return false;
	}
	return true;
}

/* "path:line: what" appended to warn, one per line */
static void add_warning(char *warn, size_t wlen, const char *path,
			unsigned int lineno, const char *why)
{
	size_t used;

	if (!warn || !wlen)
		return;
	used = strlen(warn);
	if (used < wlen)
		snprintf(warn + used, wlen - used, "%s:%u: %s\n", path, lineno,
			 why);
}

int cfg_load(const char *path, struct cfg *out, char *err, size_t errlen)
{
	return cfg_load_warn(path, out, err, errlen, NULL, 0);
}

/*
 * The next line of f into buf (CFG_MAX_LINE + 2 bytes), its '\n' kept,
 * NUL-terminated; never more than CFG_MAX_LINE + 1 bytes are read, so a
 * file without newlines (/dev/zero) costs no memory. Its length, 0 at the
 * end of the file, or -errno (errno of the read; -EIO if none).
 */
static ssize_t read_line(FILE *f, char *buf)
{
	size_t n = 0;
	int c;

	errno = 0;
	while (n <= CFG_MAX_LINE && (c = getc(f)) != EOF) {
		buf[n++] = c;
		if (c == '\n')
			break;
	}
	buf[n] = '\0';
	if (ferror(f))
		return errno ? -errno : -EIO;
	return n;
}

int cfg_load_warn(const char *path, struct cfg *out, char *err, size_t errlen,
		  char *warn, size_t warnlen)
{
	struct cfg tmp = *out;
	char why[256] = "", line[CFG_MAX_LINE + 2];
	ssize_t n;
	size_t total = 0;
	unsigned int lineno = 0;
	FILE *f;
	int ret = 0;

	f = fopen(path, "re");
	if (!f) {
		ret = -errno;
		if (ret != -ENOENT)
			snprintf(err, errlen, "%s: %s", path, strerror(-ret));
		return ret;
	}
	while ((n = read_line(f, line)) > 0) {
		char *s, *eq;

		lineno++;
		if (!is_text(line, n)) {
			snprintf(why, sizeof(why), "binary data (not a ptoprc text file)");
			goto err_parse;
		}
		if (n > CFG_MAX_LINE) {
			snprintf(why, sizeof(why), "line too long (over %d bytes)",
				 CFG_MAX_LINE);
			goto err_parse;
		}
		/* short lines without end (yes(1) in a pipe) end too */
		total += n;
		if (total > CFG_MAX_SIZE) {
			snprintf(why, sizeof(why), "file too long (over %d bytes)",
				 CFG_MAX_SIZE);
			goto err_parse;
		}
		s = trim(line);
		if (!*s || *s == '#')
			continue;
		eq = strchr(s, '=');
		if (!eq) {
			snprintf(why, sizeof(why), "expected key=value, got '%.40s'", s);
			goto err_parse;
		}
		*eq = '\0';
		ret = parse_kv(&tmp, trim(s), trim(eq + 1), why, sizeof(why));
		if (ret < 0)
			goto err_parse;
		if (ret == CFG_WARN)
			add_warning(warn, warnlen, path, lineno, why);
		ret = 0;
	}
	if (n < 0) {
		/* a directory says EISDIR here, not at fopen() */
		ret = n;
		snprintf(err, errlen, "%s: %s", path, strerror(-ret));
		goto out;
	}
	*out = tmp;	/* all or nothing */
	goto out;

err_parse:
	ret = -EINVAL;
	snprintf(err, errlen, "%s:%u: %s", path, lineno, why);
out:
	fclose(f);
	return ret;
}

/* mkdir -p for the directory part of path */
static int make_dirs(const char *path)
{
	char dir[4096], *p;

	if (snprintf(dir, sizeof(dir), "%s", path) >= (int)sizeof(dir))
		return -ENAMETOOLONG;
	p = strrchr(dir, '/');
	if (!p || p == dir)
		return 0;
	*p = '\0';
	for (p = dir + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(dir, 0755) && errno != EEXIST)
			return -errno;
		*p = '/';
	}
	if (mkdir(dir, 0755) && errno != EEXIST)
		return -errno;
	return 0;
}

int cfg_save(const char *path, const struct cfg *c, char *err, size_t errlen)
{
	char tmp[4200], list[256];
	FILE *f = NULL;
	int fd, i, ret;

	ret = make_dirs(path);
	if (ret) {
		snprintf(err, errlen, "creating the directory of %s: %s", path,
			 strerror(-ret));
		return ret;
	}
	if (snprintf(tmp, sizeof(tmp), "%s.tmpXXXXXX", path) >= (int)sizeof(tmp)) {
		snprintf(err, errlen, "%s: name too long", path);
		return -ENAMETOOLONG;
	}
	fd = mkostemp(tmp, O_CLOEXEC);
	if (fd < 0) {
		ret = -errno;
		snprintf(err, errlen, "creating %s: %s", tmp, strerror(-ret));
		return ret;
	}
	if (fchmod(fd, 0644)) {
		ret = -errno;
		close(fd);
		goto err_unlink;
	}
	f = fdopen(fd, "w");
	if (!f) {
		ret = -errno;
		close(fd);
		goto err_unlink;
	}
	fprintf(f, "# ptop configuration, written by ptop; see ptop(1)\n");
	fprintf(f, "version=%d\n", CFG_VERSION);
	if (c->ncols > 0) {
		fputs("columns=", f);
		for (i = 0; i < c->ncols; i++)
			fprintf(f, "%s%s", i ? "," : "", ptop_cols[c->cols[i]].name);
		fputc('\n', f);
	}
	fprintf(f, "sort=%s%s\n", c->sort_asc ? "-" : "",
		ptop_cols[c->sort_id].name);
	fprintf(f, "delay=%g\n", c->delay_s);
	fprintf(f, "tree=%d\n", c->tree);
	fprintf(f, "threads=%d\n", c->threads);
	fprintf(f, "source=%s\n", c->source[0] ? c->source : "auto");
	fprintf(f, "exited=%d\n", c->show_exited);
	fprintf(f, "kthreads=%d\n", !c->hide_kthreads);
	fprintf(f, "meters=%d\n", c->meters);
	fprintf(f, "fkeys=%d\n", c->fkeys);
	fprintf(f, "colors=%s\n", cfg_colors_name[c->colors]);
	cfg_meters_format(c->mcol[0], c->nmcol[0], list, sizeof(list));
	fprintf(f, "meters_left=%s\n", list);
	cfg_meters_format(c->mcol[1], c->nmcol[1], list, sizeof(list));
	fprintf(f, "meters_right=%s\n", list);
	fprintf(f, "meter_all=%s\n", cfg_meter_style_name[c->all_style]);
	if (fflush(f) || ferror(f) || fsync(fileno(f))) {
		ret = -(errno ? errno : EIO);
		fclose(f);
		goto err_unlink;
	}
	if (fclose(f)) {
		ret = -errno;
		goto err_unlink;
	}
	if (rename(tmp, path)) {
		ret = -errno;
		goto err_unlink;
	}
	return 0;

err_unlink:
	snprintf(err, errlen, "writing %s: %s", path, strerror(-ret));
	unlink(tmp);
	return ret;
}
