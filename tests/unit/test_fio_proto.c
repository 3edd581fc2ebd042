/*
 * test_fio_proto.c - fio's client/server wire format (core/fio_proto.c):
 * the CRC, framing and fragments, refusing bad streams, and decoding a real
 * fio 3.33 server's status messages, checked against what fio's own client
 * printed for the same messages (tests/fixtures/fio-proto/, see README).
 */
#include <errno.h>
#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check_util.h"
#include "fio_proto.h"
#include "fleet.h"

START_TEST(crc16_check_value)
{
	/* CRC-16/ARC's published check value */
	ck_assert_uint_eq(fio_crc16("123456789", 9), 0xBB3D);
	ck_assert_uint_eq(fio_crc16("", 0), 0);
}
END_TEST

/* The bit-by-bit definition: polynomial 0xA001 reflected, initial 0. */
static uint16_t crc16_bitwise(const uint8_t *p, size_t len)
{
	uint16_t crc = 0;
	int b;

	while (len--) {
		crc ^= *p++;
		for (b = 0; b < 8; b++)
			crc = (crc & 1) ? (uint16_t)((crc >> 1) ^ 0xA001) : (uint16_t)(crc >> 1);
	}
	return crc;
}

START_TEST(crc16_every_length)
{
	uint8_t buf[2100];
	size_t i, n;
	uint32_t x = 12345;

	for (i = 0; i < sizeof(buf); i++) {
		x = x * 1103515245u + 12345u;
		buf[i] = (uint8_t)(x >> 16);
	}
	/* every length and alignment around the 8-byte steps, and a fragment's worth */
	for (n = 0; n < 40; n++)
		for (i = 0; i < 9; i++)
			ck_assert_uint_eq(fio_crc16(buf + i, n), crc16_bitwise(buf + i, n));
	ck_assert_uint_eq(fio_crc16(buf + 3, 2048), crc16_bitwise(buf + 3, 2048));
}
END_TEST

static void next_ok(struct fio_rx *rx, struct fio_msg *m)
{
	char err[256] = "";
	int ret = fio_rx_next(rx, m, NULL, err, sizeof(err));

	ck_assert_msg(ret == 1, "fio_rx_next: %d %s", ret, err);
}

START_TEST(fragments_round_trip)
{
	struct fio_buf out = { 0 };
	struct fio_rx rx = { 0 };
	struct fio_msg m;
	uint8_t pdu[3000];
	size_t i;
	char err[256];

	for (i = 0; i < sizeof(pdu); i++)
		pdu[i] = (uint8_t)(i * 7);
	ck_assert_int_eq(fio_proto_encode(&out, FIO_PROTO_VERSION, FIO_OP_TS, 42, pdu,
					  sizeof(pdu)), 0);
	/* three fragments of at most 1024 bytes, F_MORE on all but the last */
	ck_assert_uint_eq(out.len, sizeof(pdu) + 3 * FIO_PROTO_HDR);
	ck_assert_uint_eq(out.p[4] & 1, 1);
	ck_assert_uint_eq(out.p[FIO_PROTO_HDR + 1024 + 4] & 1, 1);
	ck_assert_uint_eq(out.p[2 * (FIO_PROTO_HDR + 1024) + 4] & 1, 0);
	ck_assert_uint_eq(out.p[16] | out.p[17] << 8, 1024);
	/* fed one byte at a time: nothing until the last byte, then the whole message */
	for (i = 0; i < out.len; i++) {
		ck_assert_int_eq(fio_buf_append(&rx.in, out.p + i, 1), 0);
		if (i + 1 < out.len)
			ck_assert_int_eq(fio_rx_next(&rx, &m, NULL, err, sizeof(err)), 0);
	}
	next_ok(&rx, &m);
	ck_assert_uint_eq(m.opcode, FIO_OP_TS);
	ck_assert_uint_eq(m.tag, 42);
	ck_assert_uint_eq(m.len, sizeof(pdu));
	ck_assert_int_eq(memcmp(m.pdu, pdu, sizeof(pdu)), 0);
	ck_assert_uint_eq(m.flags, 0);
	fio_msg_release(&m);
	fio_rx_release(&rx);
	fio_buf_release(&out);
}
END_TEST

START_TEST(bad_streams_refused)
{
	struct fio_buf out = { 0 };
	struct fio_rx rx = { 0 };
	struct fio_msg m;
	uint16_t ver = 0;
	char err[256] = "";

	/* a payload byte changed: the payload CRC catches it */
	fio_proto_encode(&out, FIO_PROTO_VERSION, FIO_OP_TEXT, 0, "hello", 5);
	out.p[FIO_PROTO_HDR + 1] ^= 1;
	fio_buf_append(&rx.in, out.p, out.len);
	ck_assert_int_eq(fio_rx_next(&rx, &m, NULL, err, sizeof(err)), -EBADMSG);
	ck_assert_msg(strstr(err, "checksum"), "%s", err);
	fio_rx_release(&rx);
	fio_buf_release(&out);

	/* a header byte changed */
	fio_proto_simple(&out, FIO_OP_QUIT, 0);
	out.p[8] ^= 0x10;
	fio_buf_append(&rx.in, out.p, out.len);
	ck_assert_int_eq(fio_rx_next(&rx, &m, NULL, err, sizeof(err)), -EBADMSG);
	fio_rx_release(&rx);
	fio_buf_release(&out);

	/* another protocol version: named, with the version seen */
	fio_proto_encode(&out, 96, FIO_OP_PROBE, 1, "x", 1);
	fio_buf_append(&rx.in, out.p, out.len);
	ck_assert_int_eq(fio_rx_next(&rx, &m, &ver, err, sizeof(err)), -EPROTONOSUPPORT);
	ck_assert_uint_eq(ver, 96);
	ck_assert_msg(strstr(err, "version 96") && strstr(err, "97"), "%s", err);
	fio_rx_release(&rx);
	fio_buf_release(&out);
}
END_TEST

START_TEST(jobline_layout)
{
	struct fio_buf out = { 0 };
	char *argv[] = { "fio", "--status-interval=100ms" };
	const uint8_t *p;

	ck_assert_int_eq(fio_proto_jobline(&out, argv, 2), 0);
	p = out.p + FIO_PROTO_HDR;
	/* u16 lines, u16 client type, then u16 length (with NUL) and the text, per line */
	ck_assert_uint_eq(p[0] | p[1] << 8, 2);
	ck_assert_uint_eq(p[2] | p[3] << 8, FIO_PROTO_CLIENT_CLI);
	ck_assert_uint_eq(p[4] | p[5] << 8, 4);
	ck_assert_str_eq((const char *)p + 6, "fio");
	ck_assert_uint_eq(p[10] | p[11] << 8, strlen(argv[1]) + 1);
	ck_assert_str_eq((const char *)p + 12, argv[1]);
	ck_assert_uint_eq(out.len, FIO_PROTO_HDR + 4 + 2 + 4 + 2 + strlen(argv[1]) + 1);
	fio_buf_release(&out);
}
END_TEST

/* A captured TS payload: "offset value" lines of its nonzero u64 words. */
static uint8_t *load_ts(const char *name, size_t *len)
{
	const char *src = getenv("SRCDIR") ? getenv("SRCDIR") : ".";
	char path[1024], line[256];
	unsigned long long off, v;
	uint8_t *p = NULL;
	FILE *f;

	snprintf(path, sizeof(path), "%s/tests/fixtures/fio-proto/%s", src, name);
	f = fopen(path, "r");
	ck_assert_msg(f != NULL, "cannot open %s", path);
	ck_assert(fgets(line, sizeof(line), f));
	ck_assert_int_eq(sscanf(line, "# fio 3.33 FIO_NET_CMD_TS payload, %zu bytes", len), 1);
	p = calloc(1, *len);
	while (fgets(line, sizeof(line), f)) {
		int i;

		ck_assert_int_eq(sscanf(line, "%llu %llu", &off, &v), 2);
		ck_assert(off + 8 <= *len);
		for (i = 0; i < 8; i++)
			p[off + (unsigned)i] = (uint8_t)(v >> (8 * i));
	}
	fclose(f);
	return p;
}

static json_object *client_entry(const char *jobname)
{
	const char *src = getenv("SRCDIR") ? getenv("SRCDIR") : ".";
	char path[1024];
	json_object *root, *arr, *name;
	size_t i;

	snprintf(path, sizeof(path), "%s/tests/fixtures/fio-proto/client.json", src);
	root = json_object_from_file(path);
	ck_assert_msg(root != NULL, "cannot read %s", path);
	ck_assert(json_object_object_get_ex(root, "client_stats", &arr));
	for (i = 0; i < json_object_array_length(arr); i++) {
		json_object *e = json_object_array_get_idx(arr, i);

		json_object_object_get_ex(e, "jobname", &name);
		if (!strcmp(json_object_get_string(name), jobname)) {
			json_object *hit = json_object_get(e);

			json_object_put(root);	/* the root goes, the entry stays */
			return hit;
		}
	}
	ck_abort_msg("no client_stats entry %s", jobname);
	return NULL;
}

static int64_t jget(json_object *o, const char *a, const char *b, const char *c)
{
	json_object *v = o;

	if (a)
		ck_assert_msg(json_object_object_get_ex(v, a, &v), "no %s", a);
	if (b)
		ck_assert_msg(json_object_object_get_ex(v, b, &v), "no %s.%s", a, b);
	if (c)
		ck_assert_msg(json_object_object_get_ex(v, c, &v), "no %s.%s.%s", a, b, c);
	return json_object_get_int64(v);
}

static double jdbl(json_object *o, const char *a, const char *b, const char *c)
{
	json_object *v = o;

	json_object_object_get_ex(v, a, &v);
	json_object_object_get_ex(v, b, &v);
	if (c)
		json_object_object_get_ex(v, c, &v);
	return json_object_get_double(v);
}

/* Every field fio's client printed from this message, from our decoder. */
static void check_against_fio(const char *fixture, const char *jobname)
{
	static const char *const dn[] = { "read", "write" };
	static const double p99 = 99.0;
	struct thread_stat *ts = calloc(1, sizeof(*ts));
	struct group_stat gs;
	struct fio_msg m = { .opcode = FIO_OP_TS };
	json_object *e = client_entry(jobname);
	char err[256] = "";
	size_t len;
	int d;

	m.pdu = load_ts(fixture, &len);
	m.len = (uint32_t)len;
	ck_assert_uint_eq(len, FIO_PROTO_TS_PDU_LEN);
	ck_assert_msg(fio_proto_read_ts(&m, ts, &gs, err, sizeof(err)) == 0, "%s", err);
	ck_assert_str_eq(ts->name, jobname);
	ck_assert_int_eq(ts->groupid, jget(e, "groupid", NULL, NULL));
	ck_assert_int_eq(ts->error, jget(e, "error", NULL, NULL));
	ck_assert_uint_eq(ts->job_runtime_ms, jget(e, "job_runtime", NULL, NULL));
	ck_assert_uint_eq(ts->ctx, jget(e, "ctx", NULL, NULL));
	ck_assert_uint_eq(ts->minf, jget(e, "minf", NULL, NULL));
	ck_assert_uint_eq(ts->majf, jget(e, "majf", NULL, NULL));
	for (d = 0; d < 2; d++) {
		const struct ddir_stat *ds = &ts->dir[d];
		uint64_t v = 0;

		ck_assert_uint_eq(ds->io_bytes, jget(e, dn[d], "io_bytes", NULL));
		ck_assert_uint_eq(ds->total_ios, jget(e, dn[d], "total_ios", NULL));
		ck_assert_uint_eq(ds->short_ios, jget(e, dn[d], "short_ios", NULL));
		ck_assert_uint_eq(ds->runtime_ms, jget(e, dn[d], "runtime", NULL));
		ck_assert_uint_eq(ds->clat.n, jget(e, dn[d], "clat_ns", "N"));
		if (!ds->clat.n)
			continue;
		ck_assert_uint_eq(ds->clat.min, jget(e, dn[d], "clat_ns", "min"));
		ck_assert_uint_eq(ds->clat.max, jget(e, dn[d], "clat_ns", "max"));
		ck_assert_double_eq_tol(ds->clat.mean, jdbl(e, dn[d], "clat_ns", "mean"), 1e-5);
		ck_assert_double_eq_tol(lat_stat_stddev(&ds->clat),
					jdbl(e, dn[d], "clat_ns", "stddev"), 1e-5);
		ck_assert_uint_eq(ds->lat.max, jget(e, dn[d], "lat_ns", "max"));
		/* the histogram: fio's own percentile of it */
		hist_percentiles(ds->clat_hist, &p99, 1, &v);
		{
			json_object *pct;

			json_object_object_get_ex(e, dn[d], &pct);
			json_object_object_get_ex(pct, "clat_ns", &pct);
			ck_assert_uint_eq(v, jget(pct, "percentile", "99.000000", NULL));
		}
	}
	ck_assert_uint_eq(gs.kb_base, 1024);
	json_object_put(e);
	free(m.pdu);
	free(ts);
}

START_TEST(ts_matches_fio_client_mixed)
{
	check_against_fio("null-mixed.ts.txt", "mixed");
}
END_TEST

START_TEST(ts_matches_fio_client_writer)
{
	check_against_fio("null-writer.ts.txt", "writer");
}
END_TEST

START_TEST(ts_too_short)
{
	struct thread_stat *ts = calloc(1, sizeof(*ts));
	struct group_stat gs;
	uint8_t pdu[100] = { 0 };
	struct fio_msg m = { .opcode = FIO_OP_TS, .len = sizeof(pdu), .pdu = pdu };
	char err[256] = "";

	ck_assert_int_eq(fio_proto_read_ts(&m, ts, &gs, err, sizeof(err)), -EBADMSG);
	ck_assert_msg(strstr(err, "TS message of 100 bytes"), "%s", err);
	free(ts);
}
END_TEST

START_TEST(client_addresses)
{
	struct fleet_addr a;
	char err[256];

	ck_assert_int_eq(fleet_parse_addr("server1", &a, err, sizeof(err)), 0);
	ck_assert_str_eq(a.host, "server1");
	ck_assert_uint_eq(a.port, 8765);
	ck_assert_int_eq(fleet_parse_addr("10.0.0.5,9000", &a, err, sizeof(err)), 0);
	ck_assert_str_eq(a.host, "10.0.0.5");
	ck_assert_uint_eq(a.port, 9000);
	ck_assert_int_eq(fleet_parse_addr("ip:127.0.0.2,8766", &a, err, sizeof(err)), 0);
	ck_assert_str_eq(a.host, "127.0.0.2");
	ck_assert_uint_eq(a.port, 8766);
	ck_assert_int_eq(fleet_parse_addr("ip6:::1,8767", &a, err, sizeof(err)), 0);
	ck_assert_str_eq(a.host, "::1");
	ck_assert_uint_eq(a.port, 8767);
	ck_assert_int_eq(fleet_parse_addr("fe80::1", &a, err, sizeof(err)), 0);
	ck_assert_str_eq(a.host, "fe80::1");
	ck_assert_uint_eq(a.port, 8765);
	ck_assert_int_eq(fleet_parse_addr("sock:/run/fio.sock", &a, err, sizeof(err)), 0);
	ck_assert_str_eq(a.host, "/run/fio.sock");
	ck_assert_int_eq(fleet_parse_addr("host,99999", &a, err, sizeof(err)), -EINVAL);
	ck_assert_msg(strstr(err, "bad port '99999'"), "%s", err);
	ck_assert_int_eq(fleet_parse_addr("host,", &a, err, sizeof(err)), -EINVAL);
	ck_assert_int_eq(fleet_parse_addr(",80", &a, err, sizeof(err)), -EINVAL);
	ck_assert_int_eq(fleet_parse_addr("", &a, err, sizeof(err)), -EINVAL);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("fio_proto");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, crc16_check_value);
	tcase_add_test(tc, crc16_every_length);
	tcase_add_test(tc, fragments_round_trip);
	tcase_add_test(tc, bad_streams_refused);
	tcase_add_test(tc, jobline_layout);
	tcase_add_test(tc, ts_matches_fio_client_mixed);
	tcase_add_test(tc, ts_matches_fio_client_writer);
	tcase_add_test(tc, ts_too_short);
	tcase_add_test(tc, client_addresses);
	suite_add_tcase(s, tc);
	return s;
}

RB_TEST_MAIN(suite)
