/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ptoprc: the user's defaults, key=value lines, columns by name.
 *
 *   version=1
 *   columns=PID,USER,user,sys,total,COMMAND
 *   sort=total		(-total: ascending)
 *   delay=2
 *   tree=0
 *   threads=0
 *   source=auto
 *   exited=1		(rows for tasks that died in the interval)
 *   kthreads=1		(show kernel threads)
 *   meters=1		(header meters)
 *   fkeys=1		(the F-key bar at the bottom)
 *   colors=default	(or mono; NO_COLOR in the environment: mono)
 *   meters_left=cpu:bar,mem:bar,swap:bar	(the header's two columns,
 *   meters_right=tasks,load,uptime	 top down; :bar or :text)
 *   meter_all=bar	(or text: the All meter below both columns)
 *
 * Loading is all or nothing: a broken file (a bad value, an older or
 * garbled version, binary data) changes nothing and says file:line. A key
 * or a version from a newer ptop is a warning, and the rest is read, so
 * one file serves several versions. Saving writes a temp file in the same
 * directory and renames it into place.
 *
 * Layers, each over the one before: the system-wide files of
 * cfg_system_paths(), then the user's file (cfg_default_path()).
 */
#ifndef PTOP_CFG_H
#define PTOP_CFG_H

#include <stdbool.h>
#include <stddef.h>
#include "lib/col.h"

#define CFG_VERSION	1
#define CFG_MAX_LINE	4096
#define CFG_MAX_SIZE	(1024 * 1024)	/* a whole file */
#define CFG_MAX_COLS	(PTOP_COL__COUNT * 2)
#define CFG_PATH_MAX	4096

/* the header meters (the All meter is always there, below them) */
enum cfg_meter_id {
	CFG_M_CPU, CFG_M_MEM, CFG_M_SWAP, CFG_M_TASKS, CFG_M_LOAD,
	CFG_M_UPTIME, CFG_M__COUNT
};
enum cfg_meter_style { CFG_MS_BAR, CFG_MS_TEXT, CFG_MS__COUNT };
struct cfg_meter {
	int id;		/* CFG_M_* */
	int style;	/* CFG_MS_*: text only where the meter has no bar */
};
extern const char *const cfg_meter_name[CFG_M__COUNT];
extern const char *const cfg_meter_style_name[CFG_MS__COUNT];
/* CPU, memory and swap have a bar (as in htop); the others are text */
bool cfg_meter_has_bar(int id);
/*
 * "cpu:bar,mem,load" -> meters (a name alone: its bar if it has one).
 * Returns how many, or -EINVAL with the reason in why (an unknown meter
 * or style, a bar for a text meter, a meter listed twice).
 */
int cfg_meters_parse(const char *list, struct cfg_meter *out, char *why,
		     size_t wlen);
/* The list back as text, for ptoprc. */
void cfg_meters_format(const struct cfg_meter *m, int n, char *buf,
		       size_t len);

struct cfg {
	int cols[CFG_MAX_COLS];
	int ncols;		/* 0: the built-in default set */
	int sort_id;
	bool sort_asc;
	double delay_s;
	bool tree;
	bool threads;
	char source[32];
	bool show_exited;
	bool hide_kthreads;
	bool meters;
	bool fkeys;		/* the F-key bar at the bottom */
	int colors;		/* CFG_COLORS_* */
	/* [0] the left column, [1] the right one; a meter in one at most */
	struct cfg_meter mcol[2][CFG_M__COUNT];
	int nmcol[2];
	int all_style;		/* CFG_MS_*: the All meter */
};

enum { CFG_COLORS_DEFAULT, CFG_COLORS_MONO, CFG_COLORS__COUNT };
extern const char *const cfg_colors_name[CFG_COLORS__COUNT];

/* The built-in defaults. */
void cfg_defaults(struct cfg *c);
/*
 * $XDG_CONFIG_HOME/ptop/ptoprc, else ~/.config/ptop/ptoprc. 0, or
 * -ENOENT when neither XDG_CONFIG_HOME nor HOME is set.
 */
int cfg_default_path(char *buf, size_t len);
/*
 * The system-wide files, lowest priority first: $PTOP_SYSCONFDIR/ptoprc
 * (default /etc/ptoprc; the variable lets tests leave /etc alone), then
 * DIR/ptop/ptoprc for each DIR of $XDG_CONFIG_DIRS (default /etc/xdg),
 * the first DIR last. Returns how many (at most max).
 */
int cfg_system_paths(char (*paths)[CFG_PATH_MAX], int max);
/*
 * Parse path into *c. 0 on success; -ENOENT when the file does not exist
 * (*c unchanged, no message); -EINVAL (message "file:line: what" in err)
 * or another -errno on failure, *c unchanged.
 */
int cfg_load(const char *path, struct cfg *c, char *err, size_t errlen);
/* The same; each warning "file:line: what\n" appended to warn. */
int cfg_load_warn(const char *path, struct cfg *c, char *err, size_t errlen,
		  char *warn, size_t warnlen);
/* Write *c to path atomically (temp file + rename), mode 0644. */
int cfg_save(const char *path, const struct cfg *c, char *err, size_t errlen);

#endif /* PTOP_CFG_H */
