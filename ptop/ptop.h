/* SPDX-License-Identifier: GPL-2.0 */
/* What ptop's main shares with its command line parser (ptop_opts.c). */
#ifndef PTOP_PTOP_H
#define PTOP_PTOP_H

#include <stdbool.h>

#include "lib/caps.h"
#include "ui/app.h"

/*
 * What the command line asked for. Options override the config file, so
 * each one remembers whether it was given at all.
 */
struct ptop_opts {
	const char *cols, *sort, *source, *cfg_file;
	bool batch, tree, no_config, delay_set, events;
	enum ptop_caps_mode drop_caps;
	char cfg_path[4096];	/* the file loaded (and saved by 's'); "" none */
	char warn[512];		/* shown by the view, printed by batch */
};

/* One line on stderr ("ptop: " fmt with what), exit status 2. */
int ptop_usage_error(const char *fmt, const char *what);
/*
 * argv into *o and app: -1 to go on, or the exit status (--help,
 * --version, a list, a usage error).
 */
int ptop_parse_options(int argc, char **argv, struct ptop_opts *o,
		       struct ui_app *app);

#endif /* PTOP_PTOP_H */
