// SPDX-License-Identifier: GPL-2.0
/*
 * The encoders' output buffer and its UTF-8-safe quoting for JSON, CSV
 * and OpenMetrics labels (emit.h).
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "lib/col.h"
#include "emit.h"

/*
 * Length of the valid UTF-8 sequence at s (1-4), or 0: overlong forms,
 * surrogates and code points past U+10FFFF are not valid.
 */
static size_t utf8_len(const unsigned char *s)
{
	unsigned int cp;
	size_t n, i;

	if (s[0] < 0x80)
		return 1;
	if (s[0] >= 0xc2 && s[0] <= 0xdf)
		n = 2, cp = s[0] & 0x1f;
	else if (s[0] >= 0xe0 && s[0] <= 0xef)
		n = 3, cp = s[0] & 0x0f;
	else if (s[0] >= 0xf0 && s[0] <= 0xf4)
		n = 4, cp = s[0] & 0x07;
	else
		return 0;
	for (i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;	/* also stops at the NUL */
		cp = cp << 6 | (s[i] & 0x3f);
	}
	if ((n == 3 && cp < 0x800) || (n == 4 && cp < 0x10000) ||
	    cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
		return 0;
	return n;
}

/* --- the output buffer ---------------------------------------------------- */
void ui_buf_flush(struct ui_buf *b)
{
	if (b->n) {
		fwrite(b->b, 1, b->n, b->out);
		b->nflush++;
	}
	b->n = 0;
}

void ui_buf_put(struct ui_buf *b, const char *s, size_t n)
{
	if (b->n + n > sizeof(b->b)) {
		ui_buf_flush(b);
		if (n > sizeof(b->b)) {
			fwrite(s, 1, n, b->out);
			b->nflush++;
			return;
		}
	}
	memcpy(b->b + b->n, s, n);
	b->n += n;
}

void ui_buf_u64(struct ui_buf *b, uint64_t v)
{
	char tmp[24];

	ui_buf_put(b, tmp, ptop_fmt_u64(v, tmp, sizeof(tmp)));
}

void ui_buf_fixed(struct ui_buf *b, double d, int prec)
{
	char tmp[512];	/* "%.9f" of DBL_MAX is 319 bytes */

	ui_buf_put(b, tmp, ptop_fmt_fixed(d, prec, tmp, sizeof(tmp)));
}

static const char hexd[] = "0123456789abcdef";

/* the text \xNN (bs: backslashes before it: 1 CSV, 2 JSON and labels) */
static void put_hex(struct ui_buf *b, unsigned char c, int bs)
{
	char t[5];
	int n = 0;

	while (bs--)
		t[n++] = '\\';
	t[n++] = 'x';
	t[n++] = hexd[c >> 4];
	t[n++] = hexd[c & 15];
	ui_buf_put(b, t, n);
}

/* s, n bytes (no NUL in them), quoted: the bytes ui_emit_str() wrote with fprintf */
static void put_quoted(struct ui_buf *b, const unsigned char *s, size_t len,
		       enum ui_quote q)
{
	const unsigned char *end = s + len, *run;
	size_t n;

	ui_buf_putc(b, '"');
	while (s < end) {
		/* printable ASCII but " and \: as it is, one copy per run */
		for (run = s; s < end && *s >= 0x20 && *s < 0x7f && *s != '"' &&
			      *s != '\\'; s++)
			;
		if (s > run)
			ui_buf_put(b, (const char *)run, s - run);
		if (s == end)
			break;
		n = utf8_len(s);
		if (!n || n > (size_t)(end - s)) {
			/* the text \xNN; JSON and labels escape the backslash */
			put_hex(b, *s, q == UI_Q_CSV ? 1 : 2);
			s++;
			continue;
		}
		if (*s == '"') {
			ui_buf_put(b, q == UI_Q_CSV ? "\"\"" : "\\\"", 2);
		} else if (*s == '\\') {
			ui_buf_put(b, "\\\\", q == UI_Q_CSV ? 1 : 2);
		} else if (*s == '\n' && q == UI_Q_LABEL) {
			ui_buf_put(b, "\\n", 2);
		} else if (*s < 0x20 || *s == 0x7f) {
			if (q == UI_Q_JSON) {
				char u[6] = { '\\', 'u', '0', '0', hexd[*s >> 4],
					      hexd[*s & 15] };

				ui_buf_put(b, u, sizeof(u));
			} else {
				put_hex(b, *s, q == UI_Q_CSV ? 1 : 2);
			}
		} else {
			ui_buf_put(b, (const char *)s, n);
		}
		s += n;
	}
	ui_buf_putc(b, '"');
}

void ui_buf_str(struct ui_buf *b, const char *s, enum ui_quote q)
{
	put_quoted(b, (const unsigned char *)s, strlen(s), q);
}

static void put_list(struct ui_buf *b, const char *items, enum ui_quote q)
{
	char joined[sizeof(((struct ui_field *)0)->str_buf)];
	const char *nl;
	size_t n, pos = 0, room;

	if (q == UI_Q_JSON)
		ui_buf_putc(b, '[');
	for (; (nl = strchr(items, '\n')); items = nl + 1) {
		n = nl - items;
		if (q == UI_Q_JSON) {
			/* snprintf "%.*s" into a buffer of sizeof(joined) */
			if (n > sizeof(joined) - 1)
				n = sizeof(joined) - 1;
			if (pos++)
				ui_buf_putc(b, ',');
			put_quoted(b, (const unsigned char *)items,
				   strnlen(items, n), q);
		} else {
			/* snprintf "%s%.*s" at pos: "; " between, cut at the end */
			room = sizeof(joined) - 1 - pos;
			if (pos) {
				size_t k = room < 2 ? room : 2;

				memcpy(joined + pos, "; ", k);
				pos += k;
				room -= k;
			}
			n = strnlen(items, n);
			if (n > room)
				n = room;
			memcpy(joined + pos, items, n);
			pos += n;
		}
	}
	if (q == UI_Q_JSON)
		ui_buf_putc(b, ']');
	else if (pos)
		put_quoted(b, (const unsigned char *)joined, strnlen(joined, pos), q);
}

void ui_buf_value(struct ui_buf *b, const struct ui_field *f, enum ui_quote q)
{
	char tmp[24];

	switch (f->type) {
	case UI_V_NULL:
		if (q == UI_Q_JSON)
			ui_buf_put(b, "null", 4);
		break;
	case UI_V_INT:
		ui_buf_put(b, tmp, ptop_fmt_i64(f->i, tmp, sizeof(tmp)));
		break;
	case UI_V_NUM:
		if (isfinite(f->d))
			ui_buf_fixed(b, f->d, f->prec);
		else if (q == UI_Q_JSON)	/* JSON has no NaN */
			ui_buf_put(b, "null", 4);
		break;
	case UI_V_BOOL:
		if (f->b)
			ui_buf_put(b, "true", 4);
		else
			ui_buf_put(b, "false", 5);
		break;
	case UI_V_STR:
		ui_buf_str(b, f->s, q);
		break;
	case UI_V_LIST:
		put_list(b, f->str_buf, q);
		break;
	}
}

void ui_emit_str(FILE *out, const char *s, enum ui_quote q)
{
	struct ui_buf b;

	ui_buf_init(&b, out);
	ui_buf_str(&b, s, q);
	ui_buf_flush(&b);
}

void ui_emit_strn(FILE *out, const char *s, size_t max, enum ui_quote q)
{
	struct ui_buf b;

	ui_buf_init(&b, out);
	put_quoted(&b, (const unsigned char *)s, strnlen(s, max), q);
	ui_buf_flush(&b);
}

void ui_emit_value(FILE *out, const struct ui_field *f, enum ui_quote q)
{
	struct ui_buf b;

	ui_buf_init(&b, out);
	ui_buf_value(&b, f, q);
	ui_buf_flush(&b);
}
