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

void cfg_defaults(struct cfg *c)
{
	memset(c, 0, sizeof(*c));
	c->sort_id = PTOP_COL_TOTAL;
	c->delay_s = 2.0;
	c->show_exited = true;
	c->meters = true;
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
		   !strcmp(key, "meters")) {
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
		else
			c->meters = b;
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

int cfg_load_warn(const char *path, struct cfg *out, char *err, size_t errlen,
		  char *warn, size_t warnlen)
{
	struct cfg tmp = *out;
	char why[256] = "", *line = NULL;
	size_t cap = 0;
	ssize_t n;
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
	while ((n = getline(&line, &cap, f)) > 0) {
		char *s, *eq;

		lineno++;
		if (n > CFG_MAX_LINE) {
			snprintf(why, sizeof(why), "line too long (over %d bytes)",
				 CFG_MAX_LINE);
			goto err_parse;
		}
		if (!is_text(line, n)) {
			snprintf(why, sizeof(why), "binary data (not a ptoprc text file)");
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
	if (ferror(f)) {
		ret = -EIO;
		snprintf(err, errlen, "%s: read error", path);
		goto out;
	}
	*out = tmp;	/* all or nothing */
	goto out;

err_parse:
	ret = -EINVAL;
	snprintf(err, errlen, "%s:%u: %s", path, lineno, why);
out:
	free(line);
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
	char tmp[4200];
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
	fprintf(f, "colors=%s\n", cfg_colors_name[c->colors]);
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
