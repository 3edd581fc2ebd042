/*
 * flow.h - fio's flow control (flow=, flow_id=, flow_sleep=): the jobs that
 * share a flow_id keep their I/O counts in the ratio of their flow weights.
 * A job whose share of its flow's I/Os is ahead of its share of the weight
 * waits (flow_sleep microseconds, or a yield) before its next I/O.
 *
 * Threading contract: flow_table_init/get/release run on the runner's
 * thread before the workers start and after they are joined; flow_join,
 * flow_leave, flow_ahead and flow_count are called by worker threads and
 * touch only relaxed atomic counters (a stale read only delays one I/O).
 */
#ifndef RB_FLOW_H
#define RB_FLOW_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct flow {
	int id;
	_Atomic uint64_t ios;		/* I/Os issued by the flow's jobs */
	_Atomic uint64_t weight;	/* summed weights of the flow's running jobs */
};

struct flow_table {
	struct flow *flows;
	size_t nr, cap;
};

/* Room for up to cap flow ids; 0 or -ENOMEM. */
int flow_table_init(struct flow_table *t, size_t cap);
/* The flow for id, created on first use; NULL when the table is full. */
struct flow *flow_table_get(struct flow_table *t, int id);
void flow_table_release(struct flow_table *t);

/*
 * A job with weight starts (join) or ends (leave) its part in the flow; a
 * job that leaves takes its mine I/Os with it, so the jobs still running
 * share the flow as if it had never been there.
 */
void flow_join(struct flow *f, unsigned weight);
void flow_leave(struct flow *f, unsigned weight, uint64_t mine);
/* True when a job that issued mine I/Os is ahead of its weight's share. */
bool flow_ahead(struct flow *f, uint64_t mine, unsigned weight);
/* One more I/O issued by a job of the flow. */
void flow_count(struct flow *f);

#endif
