/*
 * ibtopo-int.h - private to libibtopo: helpers shared across lib/ files.
 * Never included by src/ or examples/.
 */
#ifndef IBTOPO_INT_H
#define IBTOPO_INT_H

#include "config.h"
#include "ibtopo.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>

#define IBTOPO__ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

#if defined(__GNUC__)
#define IBTOPO__PRINTF(f, a) __attribute__((format(printf, f, a)))
#else
#define IBTOPO__PRINTF(f, a)
#endif

/* What every module uses; each folder keeps the rest in its own header. */
#include "model/model-int.h"
#include "out/out-int.h"

#endif /* IBTOPO_INT_H */
