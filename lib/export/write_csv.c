/*
 * write_csv.c - a fabric's links as CSV: the `show links` report, whose
 * columns are listed once in lib/report.
 */
#include "export/export-int.h"

static int write_csv(const struct ibtopo_sink *sink,
		     const struct ibtopo_fabric *f, struct ibtopo_error *err)
{
	struct ibtopo_sink csv = *sink;

	csv.format = IBTOPO_FORMAT_CSV;
	return ibtopo_report_links(&csv, f, err);
}

const struct ibtopo__writer ibtopo__writer_csv = {
	.format = IBTOPO_EXPORT_CSV,
	.name = "csv",
	.write = write_csv,
};
