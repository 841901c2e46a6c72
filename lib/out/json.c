/* json.c - the only file including <jansson.h>: a thin typed wrapper */
#include "out/out-int.h"

#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#define J(v) ((json_t *)(v))
#define W(v) ((struct ibtopo__json *)(v))

struct ibtopo__json *ibtopo__json_object(void)
{
	return W(json_object());
}

struct ibtopo__json *ibtopo__json_array(void)
{
	return W(json_array());
}

struct ibtopo__json *ibtopo__json_string(const char *s)
{
	/* Node descriptions come off the wire: never fail on bad UTF-8. */
	json_t *v;

	if (!s)
		return W(json_null());
	v = json_string(s);
	if (!v) {
		char *copy = strdup(s);

		if (!copy)
			return NULL;
		for (char *p = copy; *p; p++)
			if ((unsigned char)*p >= 0x80)
				*p = '?';
		v = json_string(copy);
		free(copy);
	}
	return W(v);
}

struct ibtopo__json *ibtopo__json_int(int64_t v)
{
	return W(json_integer((json_int_t)v));
}

struct ibtopo__json *ibtopo__json_real(double v)
{
	return W(json_real(v));
}

struct ibtopo__json *ibtopo__json_bool(bool v)
{
	return W(json_boolean(v));
}

struct ibtopo__json *ibtopo__json_null(void)
{
	return W(json_null());
}

struct ibtopo__json *ibtopo__json_u64(uint64_t v)
{
	if (v > INT64_MAX)
		return ibtopo__json_real((double)v);
	return ibtopo__json_int((int64_t)v);
}

struct ibtopo__json *ibtopo__json_guid(uint64_t guid)
{
	char buf[24];

	if (!guid)
		return W(json_null());
	snprintf(buf, sizeof(buf), "0x%016" PRIx64, guid);
	return W(json_string(buf));
}

int ibtopo__json_set(struct ibtopo__json *obj, const char *key,
		     struct ibtopo__json *value)
{
	if (!obj || !value) {
		json_decref(J(value));
		return IBTOPO_ENOMEM;
	}
	return json_object_set_new(J(obj), key, J(value)) ? IBTOPO_ENOMEM : 0;
}

int ibtopo__json_set_path(struct ibtopo__json *obj, const char *dotted,
			  struct ibtopo__json *value)
{
	const char *dot = strchr(dotted, '.');
	char key[128];
	json_t *child;
	size_t len;

	if (!dot)
		return ibtopo__json_set(obj, dotted, value);
	len = (size_t)(dot - dotted);
	if (len >= sizeof(key)) {
		json_decref(J(value));
		return IBTOPO_EINVAL;
	}
	memcpy(key, dotted, len);
	key[len] = '\0';
	child = json_object_get(J(obj), key);
	if (!child) {
		child = json_object();
		if (!child || json_object_set_new(J(obj), key, child)) {
			json_decref(J(value));
			return IBTOPO_ENOMEM;
		}
	}
	return ibtopo__json_set_path(W(child), dot + 1, value);
}

int ibtopo__json_append(struct ibtopo__json *arr, struct ibtopo__json *value)
{
	if (!arr || !value) {
		json_decref(J(value));
		return IBTOPO_ENOMEM;
	}
	return json_array_append_new(J(arr), J(value)) ? IBTOPO_ENOMEM : 0;
}

static int dump_cb(const char *buf, size_t len, void *data)
{
	return ibtopo__out_write(data, buf, len) ? -1 : 0;
}

int ibtopo__json_write(const struct ibtopo_sink *sink,
		       struct ibtopo__json *value, struct ibtopo_error *err)
{
	if (!value)
		return ibtopo__error_set(err, IBTOPO_ENOMEM, "out of memory");
	if (json_dump_callback(J(value), dump_cb, (void *)sink,
			       JSON_COMPACT | JSON_PRESERVE_ORDER |
			       JSON_REAL_PRECISION(6) | JSON_ENCODE_ANY))
		return ibtopo__error_set(err, IBTOPO_EIO, "cannot write output");
	return 0;
}

int ibtopo__json_dump(const struct ibtopo_sink *sink,
		      struct ibtopo__json *value, struct ibtopo_error *err)
{
	int rc = ibtopo__json_write(sink, value, err);

	if (rc)
		return rc;
	if (ibtopo__out_write(sink, "\n", 1))
		return ibtopo__error_set(err, IBTOPO_EIO, "cannot write output");
	return 0;
}

void ibtopo__json_free(struct ibtopo__json *value)
{
	json_decref(J(value));
}

struct ibtopo__json *ibtopo__json_kept(struct ibtopo__json *value, int rc)
{
	if (!rc)
		return value;
	ibtopo__json_free(value);
	return NULL;
}

int ibtopo__json_set_fabric(struct ibtopo__json *obj, const char *key,
			    const struct ibtopo_fabric *fabric)
{
	const char *name = fabric ? ibtopo_fabric_meta(fabric)->fabric : NULL;

	if (!name)
		return obj ? 0 : IBTOPO_ENOMEM;
	return ibtopo__json_set(obj, key, ibtopo__json_string(name));
}

struct ibtopo__json *ibtopo__json_report(const struct ibtopo_fabric *fabric)
{
	struct ibtopo__json *root = ibtopo__json_object();

	if (root && (ibtopo__json_set(root, "schema_version",
				      ibtopo__json_int(
					      IBTOPO_JSON_SCHEMA_VERSION)) ||
		     ibtopo__json_set_fabric(root, "fabric", fabric))) {
		ibtopo__json_free(root);
		root = NULL;
	}
	return root;
}

static struct ibtopo__json *json_count(const struct ibtopo_fabric *f,
				       enum ibtopo_node_type type)
{
	return ibtopo__json_u64(ibtopo_fabric_count_type(f, type));
}

struct ibtopo__json *ibtopo__json_snapshot(const struct ibtopo_fabric *f)
{
	const struct ibtopo_fabric_meta *m = ibtopo_fabric_meta(f);
	struct ibtopo__json *o = ibtopo__json_object();

	if (!o || ibtopo__json_set(o, "id", m->snapshot_id > 0 ?
				   ibtopo__json_int(m->snapshot_id) :
				   ibtopo__json_null()) ||
	    ibtopo__json_set(o, "label", ibtopo__json_string(m->label)) ||
	    ibtopo__json_set(o, "source", ibtopo__json_string(m->source)) ||
	    ibtopo__json_set(o, "switches", json_count(f, IBTOPO_NODE_SWITCH)) ||
	    ibtopo__json_set(o, "cas", json_count(f, IBTOPO_NODE_CA)) ||
	    ibtopo__json_set(o, "routers", json_count(f, IBTOPO_NODE_ROUTER)) ||
	    ibtopo__json_set(o, "links",
			     ibtopo__json_u64(ibtopo_fabric_link_count(f))) ||
	    ibtopo__json_set(o, "cables", ibtopo__json_u64(ibtopo__fabric_cable_count(f))) ||
	    ibtopo__json_set(o, "partial", ibtopo__json_bool(m->partial)) ||
	    ibtopo__json_set(o, "partial_reason",
			     ibtopo__json_string(m->partial ? m->partial_reason :
							      NULL)) ||
	    ibtopo__json_set(o, "counters_unread",
			     ibtopo__json_u64(ibtopo_fabric_counters_unread(
				     f, NULL, 0)))) {
		ibtopo__json_free(o);
		return NULL;
	}
	return o;
}

int ibtopo__json_report_open(const struct ibtopo_sink *sink,
			     const struct ibtopo_fabric *fabric,
			     struct ibtopo_error *err)
{
	struct ibtopo__json *root = ibtopo__json_report(fabric);
	char *text = root ? json_dumps(J(root), JSON_COMPACT |
						JSON_PRESERVE_ORDER) :
			    NULL;
	int rc = 0;

	if (!text)
		rc = ibtopo__error_set(err, IBTOPO_ENOMEM, "out of memory");
	else if (ibtopo__out_write(sink, text, strlen(text) - 1))
		rc = ibtopo__error_set(err, IBTOPO_EIO, "cannot write output");
	free(text);
	ibtopo__json_free(root);
	return rc;
}

static struct ibtopo__json *set_array(unsigned mask, bool speed)
{
	json_t *arr = json_array();
	unsigned top = speed ? IBTOPO_SPEED_ALL : IBTOPO_WIDTH_ALL;

	if (!arr)
		return NULL;
	if (speed) {
		for (unsigned bit = 1; bit && bit <= top; bit <<= 1)
			if (mask & bit)
				json_array_append_new(arr,
					json_string(ibtopo_speed_name(bit)));
	} else {
		/* by lanes: 1x 2x 4x 8x 12x */
		static const unsigned order[] = { IBTOPO_WIDTH_1X, IBTOPO_WIDTH_2X,
			IBTOPO_WIDTH_4X, IBTOPO_WIDTH_8X, IBTOPO_WIDTH_12X };

		for (size_t i = 0; i < IBTOPO__ARRAY_SIZE(order); i++)
			if (mask & order[i])
				json_array_append_new(arr,
					json_string(ibtopo_width_name(order[i])));
	}
	return W(arr);
}

struct ibtopo__json *ibtopo__json_speed_set(unsigned mask)
{
	return mask ? set_array(mask, true) : W(json_null());
}

struct ibtopo__json *ibtopo__json_width_set(unsigned mask)
{
	return mask ? set_array(mask, false) : W(json_null());
}
