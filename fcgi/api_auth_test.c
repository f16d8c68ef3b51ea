/* SPDX-License-Identifier: ISC */
/* api_auth_test.c: the API credential parsers: Basic, GoogleLogin, T */
#include <stdio.h>
#include <string.h>

#include "api.h"
#include "buf.h"
#include "test.h"

static const struct {
	const char	*hdr;
	const char	*name;	/* NULL: refused */
	const char	*pw;
} basic[] = {
	/* alice:secret */
	{ "Basic YWxpY2U6c2VjcmV0", "alice", "secret" },
	{ "basic YWxpY2U6c2VjcmV0", "alice", "secret" },
	{ "BASIC   YWxpY2U6c2VjcmV0  ", "alice", "secret" },
	{ "  Basic\tYWxpY2U6c2VjcmV0", "alice", "secret" },
	/* a:b:c: the password keeps its colons */
	{ "Basic YTpiOmM=", "a", "b:c" },
	{ "Basic YTpiOmM", "a", "b:c" },
	/* "a:" an empty password */
	{ "Basic YTo=", "a", "" },
	/* ":x" an empty name */
	{ "Basic Ong=", NULL, NULL },
	/* "abc" no colon */
	{ "Basic YWJj", NULL, NULL },
	/* "a\0:b" a NUL inside */
	{ "Basic YQA6Yg==", NULL, NULL },
	{ "Basic", NULL, NULL },
	{ "Basic ", NULL, NULL },
	{ "Basicx YWxpY2U6c2VjcmV0", NULL, NULL },
	{ "Bearer YWxpY2U6c2VjcmV0", NULL, NULL },
	{ "Basic YWxp!2U6c2VjcmV0", NULL, NULL },
	{ "Basic Y", NULL, NULL },
	{ "Basic YWxpY2U6c2VjcmV0=x", NULL, NULL },
	{ "", NULL, NULL },
	{ NULL, NULL, NULL },
};

static const struct {
	const char	*hdr;
	const char	*tok;	/* NULL: refused */
} glogin[] = {
	{ "GoogleLogin auth=abc123", "abc123" },
	{ "GoogleLogin Auth=abc123", "abc123" },
	{ "googlelogin AUTH=abc123", "abc123" },
	{ "GoogleLogin auth = abc123 ", "abc123" },
	{ "GoogleLogin auth=\"abc123\"", "abc123" },
	{ "GoogleLogin auth=abc123\r\n", "abc123" },
	{ "GoogleLogin auth=abc123, x=y", "abc123" },
	{ "  GoogleLogin   auth=abc123", "abc123" },
	{ "GoogleLogin auth=", NULL },
	{ "GoogleLogin auth", NULL },
	{ "GoogleLogin token=abc", NULL },
	{ "GoogleLoginauth=abc", NULL },
	{ "Basic YWxpY2U6c2VjcmV0", NULL },
	{ "", NULL },
	{ NULL, NULL },
};

static const struct {
	const char	*in;
	const char	*out;
} trim[] = {
	{ "abc", "abc" },
	{ "abc\n", "abc" },
	{ " abc \r\n", "abc" },
	{ "\tab c\t", "ab c" },
	{ "", "" },
	{ " \n", "" },
	{ "x", "x" },
};

int
main(void)
{
	struct buf	 b;
	const char	*name, *pw, *t;
	size_t		 i, n;
	int		 rc;

	buf_init(&b);
	T_ROWS();
	for (i = 0; i < sizeof(basic) / sizeof(basic[0]); i++) {
		rc = api_basic_parse(basic[i].hdr, &b, &name, &pw);
		if (basic[i].name == NULL) {
			T_OK(rc == -1 && name == NULL && pw == NULL,
			    "Basic \"%s\" refused", basic[i].hdr ?
			    basic[i].hdr : "(null)");
			continue;
		}
		T_OK(rc == 0, "Basic \"%s\" parsed", basic[i].hdr);
		if (rc == 0) {
			T_STR(name, basic[i].name, "Basic name");
			T_STR(pw, basic[i].pw, "Basic password");
		}
	}
	T_ROWS_END("api_basic_parse: %zu headers", i);
	T_ROWS();
	for (i = 0; i < sizeof(glogin) / sizeof(glogin[0]); i++) {
		t = api_googlelogin_parse(glogin[i].hdr, &n);
		if (glogin[i].tok == NULL) {
			T_OK(t == NULL && n == 0, "GoogleLogin \"%s\" refused",
			    glogin[i].hdr ? glogin[i].hdr : "(null)");
			continue;
		}
		T_OK(t != NULL && n == strlen(glogin[i].tok) &&
		    strncmp(t, glogin[i].tok, n) == 0,
		    "GoogleLogin \"%s\" gives %s", glogin[i].hdr,
		    glogin[i].tok);
	}
	T_ROWS_END("api_googlelogin_parse: %zu headers", i);
	T_ROWS();
	for (i = 0; i < sizeof(trim) / sizeof(trim[0]); i++) {
		t = api_trim(trim[i].in, &n);
		T_OK(t != NULL && n == strlen(trim[i].out) &&
		    strncmp(t, trim[i].out, n) == 0, "trim \"%s\"",
		    trim[i].in);
	}
	T_ROWS_END("api_trim: %zu rows", i);
	T_OK(api_trim(NULL, &n) == NULL && n == 0, "trim NULL");
	buf_release(&b);
	return T_DONE();
}
