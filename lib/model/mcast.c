/*
 * mcast.c - multicast forwarding tables (MFTs) attached to switches, and
 * the multicast groups with their members that a fabric carries.
 */
#include "model/model-int.h"

#include <stdlib.h>
#include <string.h>

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return (x > y) - (x < y);
}

static bool mask_empty(const uint8_t *m, unsigned stride)
{
	for (unsigned i = 0; i < stride; i++)
		if (m[i])
			return false;
	return true;
}

/* Sort the MLIDs (their masks with them) and refuse a repeated one. */
static int sort_entries(struct ibtopo_mft *t, const uint16_t *mlids,
			const uint8_t *masks, unsigned stride, size_t count,
			struct ibtopo_error *err)
{
	uint64_t *order = malloc(count * sizeof(*order));
	size_t n = 0;
	int rc = 0;

	if (!order)
		return ibtopo__error_set(err, IBTOPO_ENOMEM, "out of memory");
	for (size_t i = 0; i < count; i++)
		order[i] = (uint64_t)mlids[i] << 32 | i;
	qsort(order, count, sizeof(*order), cmp_u64);
	for (size_t i = 0; i < count && !rc; i++) {
		uint16_t mlid = (uint16_t)(order[i] >> 32);
		size_t k = (size_t)(order[i] & 0xffffffffu);

		if (i && mlid == (uint16_t)(order[i - 1] >> 32))
			rc = ibtopo__error_set(err, IBTOPO_EINVAL,
					       "MLID 0x%04x given twice", mlid);
		else if (!mask_empty(masks + k * stride, stride)) {
			t->mlid[n] = mlid;
			for (unsigned b = 0; b < t->stride && b < stride; b++)
				t->mask[n * t->stride + b] =
					masks[k * stride + b];
			n++;
		}
	}
	t->count = n;
	free(order);
	return rc;
}

int ibtopo_node_set_mft(struct ibtopo_node *node, const uint16_t *mlids,
			const uint8_t *masks, unsigned stride, size_t count,
			struct ibtopo_error *err)
{
	struct ibtopo_mft *t = NULL;
	int rc;

	if (!node || node->type != IBTOPO_NODE_SWITCH)
		return ibtopo__error_set(
			err, IBTOPO_EINVAL,
			"a multicast forwarding table needs a switch");
	for (size_t i = 0; i < count; i++)
		if (mlids[i] < IBTOPO_MLID_FIRST || mlids[i] > IBTOPO_MLID_LAST)
			return ibtopo__error_set(
				err, IBTOPO_EINVAL,
				"0x%04x is not a multicast LID", mlids[i]);
	if (count) {
		t = calloc(1, sizeof(*t));
		if (!t)
			return ibtopo__error_set(err, IBTOPO_ENOMEM,
						 "out of memory");
		t->stride = (node->nports + 8) / 8;
		t->mlid = calloc(count, sizeof(*t->mlid));
		t->mask = calloc(count, t->stride);
		if (!t->mlid || !t->mask) {
			ibtopo__mft_free(t);
			return ibtopo__error_set(err, IBTOPO_ENOMEM,
						 "out of memory");
		}
		rc = sort_entries(t, mlids, masks, stride, count, err);
		if (rc) {
			ibtopo__mft_free(t);
			return rc;
		}
		/* ports above the switch's own are no ports */
		for (size_t i = 0; i < t->count; i++) {
			uint8_t *m = t->mask + i * t->stride;
			unsigned bits = node->nports + 1;

			if (bits % 8)
				m[t->stride - 1] &=
					(uint8_t)((1u << bits % 8) - 1);
		}
		if (!t->count) {
			ibtopo__mft_free(t);
			t = NULL;
		}
	}
	ibtopo__mft_free(node->mft);
	node->mft = t;
	return 0;
}

const uint8_t *ibtopo_mft_mask(const struct ibtopo_mft *mft, uint16_t mlid)
{
	size_t lo = 0, hi;

	if (!mft)
		return NULL;
	hi = mft->count;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (mft->mlid[mid] == mlid)
			return mft->mask + mid * mft->stride;
		if (mft->mlid[mid] < mlid)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

bool ibtopo_fabric_has_mfts(const struct ibtopo_fabric *fabric)
{
	size_t n = ibtopo_fabric_node_count(fabric);

	for (size_t i = 0; i < n; i++)
		if (ibtopo_fabric_node(fabric, i)->mft)
			return true;
	return false;
}

void ibtopo_fabric_clear_mfts(struct ibtopo_fabric *fabric)
{
	size_t n = ibtopo_fabric_node_count(fabric);

	for (size_t i = 0; i < n; i++) {
		struct ibtopo_node *node = ibtopo_fabric_node(fabric, i);

		ibtopo__mft_free(node->mft);
		node->mft = NULL;
	}
}

/* ---- groups ---- */

static struct ibtopo_mcast_group *find_group(struct ibtopo__mcast_groups *g,
					     const uint8_t mgid[16])
{
	for (size_t i = 0; i < g->count; i++)
		if (memcmp(g->group[i].mgid, mgid, 16) == 0)
			return &g->group[i];
	return NULL;
}

int ibtopo_fabric_add_mcast_member(struct ibtopo_fabric *fabric,
				   const uint8_t mgid[16], uint16_t mlid,
				   uint16_t pkey,
				   const struct ibtopo_mcast_member *member,
				   struct ibtopo_error *err)
{
	struct ibtopo__mcast_groups *g;
	struct ibtopo_mcast_group *grp;
	struct ibtopo_mcast_member *m;

	if (!fabric || !mgid)
		return ibtopo__error_set(err, IBTOPO_EINVAL,
					 "no fabric or MGID");
	g = ibtopo__fabric_mcast(fabric);
	grp = find_group(g, mgid);
	if (!grp) {
		if (ibtopo__grow(&g->group, &g->alloc, g->count + 1,
				 sizeof(*g->group)))
			goto out_nomem;
		grp = &g->group[g->count++];
		memset(grp, 0, sizeof(*grp));
		memcpy(grp->mgid, mgid, 16);
		grp->mlid = mlid;
		grp->pkey = pkey;
	}
	if (!member || !member->port_guid)
		return 0;
	for (size_t i = 0; i < grp->nmembers; i++)
		if (grp->members[i].port_guid == member->port_guid) {
			grp->members[i].join_state |= member->join_state;
			return 0;
		}
	/* a power of 2 or below: grown by doubling */
	if (!(grp->nmembers & (grp->nmembers - 1))) {
		m = realloc(grp->members,
			    (grp->nmembers ? grp->nmembers * 2 : 4) *
				    sizeof(*m));
		if (!m)
			goto out_nomem;
		grp->members = m;
	}
	grp->members[grp->nmembers++] = *member;
	return 0;

out_nomem:
	return ibtopo__error_set(err, IBTOPO_ENOMEM, "out of memory");
}

size_t ibtopo_fabric_mcast_group_count(const struct ibtopo_fabric *fabric)
{
	return fabric ? ibtopo__fabric_mcast(fabric)->count : 0;
}

const struct ibtopo_mcast_group *
ibtopo_fabric_mcast_group(const struct ibtopo_fabric *fabric, size_t i)
{
	const struct ibtopo__mcast_groups *g;

	if (!fabric)
		return NULL;
	g = ibtopo__fabric_mcast(fabric);
	return i < g->count ? &g->group[i] : NULL;
}

void ibtopo_fabric_set_mcast_groups_read(struct ibtopo_fabric *fabric,
					 bool read)
{
	if (fabric)
		ibtopo__fabric_mcast(fabric)->read = read;
}

bool ibtopo_fabric_mcast_groups_read(const struct ibtopo_fabric *fabric)
{
	return fabric && ibtopo__fabric_mcast(fabric)->read;
}

const char *ibtopo_mgid_text(char *buf, size_t len, const uint8_t mgid[16])
{
	unsigned w[8];
	int best = -1, best_n = 0;
	size_t o = 0;

	for (int i = 0; i < 8; i++)
		w[i] = (unsigned)mgid[2 * i] << 8 | mgid[2 * i + 1];
	/* the longest run of two or more zero words becomes "::" */
	for (int i = 0; i < 8;) {
		int n = 0;

		while (i + n < 8 && !w[i + n])
			n++;
		if (n > best_n && n >= 2) {
			best = i;
			best_n = n;
		}
		i += n ? n : 1;
	}
	buf[0] = '\0';
	for (int i = 0; i < 8 && o < len; i++) {
		int k;

		if (i == best) {
			k = snprintf(buf + o, len - o, "::");
			i += best_n - 1;
		} else {
			k = snprintf(buf + o, len - o, "%s%x",
				     i && i != best + best_n ? ":" : "", w[i]);
		}
		if (k < 0)
			break;
		o += (size_t)k;
	}
	return buf;
}
