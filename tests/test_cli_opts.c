/*
 * test_cli_opts.c - cli_getopt (src/cli.c) returns the id written in an
 * option's row, whatever the row's place in its table; a long-only row
 * without an id, or two rows of one id, stop the command at once.
 */
#include "../src/cli.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

enum { OPT_ALPHA = CLI_LONG + 7, OPT_BETA = CLI_LONG + 3, OPT_LABEL };

static const struct cli_opt forward[] = {
	CLI_LONG_OPT(OPT_ALPHA, "alpha", 1, "A", "the first"),
	CLI_LONG_OPT(OPT_BETA, "beta", 0, NULL, "the second"),
	CLI_OPT("out", 'o', 1, "FILE", "a letter"),
	CLI_OPT_SAME_ID(OPT_LABEL, cli_opt_label),
	CLI_OPT_SAME(cli_opt_format),
	{ NULL },
};

/* The same rows, the other way round. */
static const struct cli_opt backward[] = {
	CLI_OPT_SAME(cli_opt_format),
	CLI_OPT_SAME_ID(OPT_LABEL, cli_opt_label),
	CLI_OPT("out", 'o', 1, "FILE", "a letter"),
	CLI_LONG_OPT(OPT_BETA, "beta", 0, NULL, "the second"),
	CLI_LONG_OPT(OPT_ALPHA, "alpha", 1, "A", "the first"),
	{ NULL },
};

static const struct cli_opt no_id[] = {
	CLI_OPT("alpha", 0, 1, "A", "a long-only row without its id"),
	{ NULL },
};

static const struct cli_opt same_id[] = {
	CLI_LONG_OPT(OPT_ALPHA, "alpha", 1, "A", "the first"),
	CLI_LONG_OPT(OPT_ALPHA, "beta", 0, NULL, "bound to alpha's id"),
	{ NULL },
};

static struct cli_cmd command(const struct cli_opt *opts)
{
	struct cli_cmd c = {
		.name = "t", .summary = "a test", .args = "", .opts = opts
	};
	return c;
}

/* Each option of one command line, as cli_getopt returns it. */
static void parse(const struct cli_opt *opts)
{
	char *argv[] = { "t",  "--beta", "--alpha",  "v",    "--label", "L",
			 "-o", "f",	 "--format", "json", "oper",	NULL };
	int argc = (int)(sizeof(argv) / sizeof(argv[0])) - 1;
	struct cli_cmd cmd = command(opts);
	struct cli_report rep = CLI_REPORT_INIT;
	struct cli_state st = { .report = &rep };

	assert_int_equal(cli_getopt(&st, argc, argv, &cmd), OPT_BETA);
	assert_string_equal(st.row->long_name, "beta");
	assert_int_equal(cli_getopt(&st, argc, argv, &cmd), OPT_ALPHA);
	assert_string_equal(st.optarg, "v");
	assert_string_equal(st.row->long_name, "alpha");
	assert_int_equal(cli_getopt(&st, argc, argv, &cmd), OPT_LABEL);
	assert_string_equal(st.optarg, "L");
	assert_int_equal(cli_getopt(&st, argc, argv, &cmd), 'o');
	assert_string_equal(st.optarg, "f");
	/* --format is parsed into the report, never returned */
	assert_int_equal(cli_getopt(&st, argc, argv, &cmd), -1);
	assert_int_equal(rep.format, IBTOPO_FORMAT_JSON);
	assert_string_equal(argv[st.optind], "oper");
}

static void ids_follow_rows(void **state)
{
	(void)state;
	parse(forward);
	parse(backward);
}

/* The status of a child that parsed `--alpha x` over `opts`. */
static int child_status(const struct cli_opt *opts)
{
	pid_t pid = fork();
	int status = 0;

	assert_true(pid >= 0);
	if (pid == 0) {
		char *argv[] = { "t", "--alpha", "x", NULL };
		struct cli_cmd cmd = command(opts);
		struct cli_state st = { 0 };

		/* the abort's message is expected: keep the log clean */
		if (!freopen("/dev/null", "w", stderr))
			_exit(3);
		cli_getopt(&st, 3, argv, &cmd);
		_exit(0);
	}
	assert_int_equal(waitpid(pid, &status, 0), pid);
	return status;
}

static void unbound_rows_stop(void **state)
{
	int st;

	(void)state;
	st = child_status(no_id);
	assert_true(WIFSIGNALED(st) && WTERMSIG(st) == SIGABRT);
	st = child_status(same_id);
	assert_true(WIFSIGNALED(st) && WTERMSIG(st) == SIGABRT);
	st = child_status(forward);
	assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(ids_follow_rows),
		cmocka_unit_test(unbound_rows_stop),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
