/*
 * fuzz_fio_proto.c - what a fio server (or anything listening where one was
 * expected) sends to `raidbench run --client`: the byte stream cut into
 * commands by core/fio_proto.c (headers, CRCs, fragments), then each
 * command read as the fleet reads its opcode. The input arrives in two
 * pieces, as a socket may split it.
 */
#include <stdlib.h>
#include <string.h>

#include "fio_proto.h"
#include "fuzz.h"

static void read_one(const struct fio_msg *m)
{
	struct thread_stat *ts;
	struct group_stat gs;
	struct fio_probe_reply pr;
	struct fio_eta eta;
	uint32_t a, b;
	int32_t e, s;
	const char *text;
	size_t len;
	char err[512] = "";
	int ret = 0;

	switch (m->opcode) {
	case FIO_OP_PROBE:
		ret = fio_proto_read_probe(m, &pr, err, sizeof(err));
		break;
	case FIO_OP_START:
		ret = fio_proto_read_start(m, &a, &b, err, sizeof(err));
		break;
	case FIO_OP_STOP:
		ret = fio_proto_read_stop(m, &e, &s, err, sizeof(err));
		break;
	case FIO_OP_ETA:
		ret = fio_proto_read_eta(m, &eta, err, sizeof(err));
		break;
	case FIO_OP_TEXT:
		ret = fio_proto_read_text(m, &a, &text, &len, err, sizeof(err));
		/* every byte it points at is inside the payload (ASan checks the reads) */
		for (b = 0; !ret && b < len; b++)
			a += (unsigned char)text[b];
		break;
	case FIO_OP_GS:
		ret = fio_proto_read_gs(m, &gs, err, sizeof(err));
		break;
	case FIO_OP_TS:
		ts = calloc(1, sizeof(*ts));
		if (!ts)
			return;
		ret = fio_proto_read_ts(m, ts, &gs, err, sizeof(err));
		free(ts);
		break;
	default:
		return;
	}
	fuzz_need_message(ret, err, "fio_proto_read");
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fio_rx rx = { 0 };
	struct fio_msg m;
	size_t half = size / 2;
	uint16_t ver = 0;
	char err[512] = "";
	int ret = 0, part;

	for (part = 0; part < 2 && ret >= 0; part++) {
		if (fio_buf_append(&rx.in, part ? data + half : data, part ? size - half : half))
			break;
		while ((ret = fio_rx_next(&rx, &m, &ver, err, sizeof(err))) == 1) {
			read_one(&m);
			fio_msg_release(&m);
		}
		fuzz_need_message(ret < 0 ? ret : 0, err, "fio_rx_next");
	}
	fio_rx_release(&rx);
	return 0;
}
