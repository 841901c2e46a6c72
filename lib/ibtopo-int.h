/*
 * ibtopo-int.h - private to libibtopo: the umbrella for the modules above
 * the ground floor (findings, io, analysis, report, export, diagram,
 * compare): the model's and the output plumbing's private headers. lib/model
 * and lib/out include their own -int.h instead, so nothing on the ground
 * floor includes this file. Never included by src/ or examples/.
 */
#ifndef IBTOPO_INT_H
#define IBTOPO_INT_H

#include "model/model-int.h"
#include "out/out-int.h"

#endif /* IBTOPO_INT_H */
