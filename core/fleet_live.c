/*
 * fleet_live.c - a fleet's live records: every tick, the difference between
 * each host's newest cumulative status set and the one the tick before, per
 * job row, per host and for all hosts, with percentiles from the difference
 * of the latency histograms; pushed into the ring as one batch.
 */
#include <stdlib.h>
#include <string.h>

#include "fleet_int.h"
#include "worker.h"

/* ---- live records ----------------------------------------------------------------- */

void fleet_emit(struct fleet *f, const struct live_rec *r)
{
	struct fleet_priv *fp = f->priv;

	if (fp->nr_recs == fp->cap_recs) {
		size_t cap = fp->cap_recs ? fp->cap_recs * 2 : 256;
		struct live_rec *n = realloc(fp->recs, cap * sizeof(*n));

		if (!n)
			return;	/* a live record lost; the results are not */
		fp->recs = n;
		fp->cap_recs = cap;
	}
	fp->recs[fp->nr_recs] = *r;
	fp->recs[fp->nr_recs++].seq = fp->seq++;
}

static uint32_t clamp32(uint64_t v)
{
	return v > UINT32_MAX ? UINT32_MAX : (uint32_t)v;
}

static void io_rec(struct fleet *f, unsigned job, int d, uint64_t t_ns, uint64_t ios,
		   uint64_t bytes, double lat_sum, const uint64_t *hist, uint64_t tot_ios,
		   uint64_t tot_bytes)
{
	static const double pl[3] = { 50.0, 99.0, 99.9 };
	struct live_rec r = { .type = LIVE_IO, .ddir = (uint8_t)d, .job = (uint16_t)job,
			      .t_ns = t_ns };
	uint64_t pv[3] = { 0 };
	unsigned i;

	r.u.io.ios = clamp32(ios);
	r.u.io.bytes = bytes;
	r.u.io.tot_ios = tot_ios;
	r.u.io.tot_bytes = tot_bytes;
	if (hist && hist_percentiles(hist, pl, 3, pv)) {
		r.u.io.p50_ns = clamp32(pv[0]);
		r.u.io.p99_ns = clamp32(pv[1]);
		r.u.io.p999_ns = clamp32(pv[2]);
		for (i = HIST_NR; i-- > 0;)
			if (hist[i]) {
				r.u.io.max_ns = clamp32(hist_value(i));
				break;
			}
	}
	r.u.io.mean_ns = ios ? clamp32((uint64_t)(lat_sum / (double)ios)) : 0;
	fleet_emit(f, &r);
}

static void status_rec(struct fleet *f, unsigned job, unsigned phase, uint64_t t_ns,
		       uint32_t running, uint64_t errors, uint64_t eta_s, float pct,
		       uint64_t interval_ns)
{
	struct live_rec r = { .type = LIVE_STATUS, .ddir = (uint8_t)phase, .job = (uint16_t)job,
			      .t_ns = t_ns };

	r.u.st.running = running;
	r.u.st.errors = errors;
	r.u.st.eta_s = eta_s;
	r.u.st.percent = pct;
	r.u.st.interval_ns = interval_ns;
	r.u.st.drops = ring_dropped(&f->ring);
	fleet_emit(f, &r);
}

bool fleet_host_live(const struct fleet_host *h)
{
	return h->state == FLEET_RUNNING || h->state == FLEET_STOPPING;
}

static float eta_percent(const struct fio_eta *e)
{
	uint64_t all = e->elapsed_s + e->eta_s;

	return all ? (float)(100.0 * (double)e->elapsed_s / (double)all) : 0.0f;
}

/*
 * One tick: for every host, the difference between its newest status set and
 * the one at the previous tick, per job row, per host and for all hosts.
 */
void fleet_tick_records(struct fleet *f, uint64_t now, uint64_t interval_ns)
{
	struct fleet_priv *fp = f->priv;
	uint64_t t = now - f->t0_ns, all_ios[3] = { 0 }, all_bytes[3] = { 0 };
	uint64_t all_tot_ios[3] = { 0 }, all_tot_bytes[3] = { 0 }, all_err = 0, eta = 0;
	double all_lat[3] = { 0 };
	uint32_t running = 0;
	float pct = 100.0f;
	bool any_live = false;
	size_t h, s;
	int d;

	memset(fp->hist_all, 0, DDIR_RWDIR_CNT * HIST_NR * sizeof(uint64_t));
	for (h = 0; h < f->nr_hosts; h++) {
		struct fleet_host *fh = &f->hosts[h];
		struct fleet_host_priv *hp = fh->priv;
		uint64_t h_ios[3] = { 0 }, h_bytes[3] = { 0 }, h_tot_ios[3] = { 0 };
		uint64_t h_tot_bytes[3] = { 0 }, h_err = 0;
		double h_lat[3] = { 0 };
		double secs = (double)interval_ns / 1e9;
		unsigned phase;

		memset(fp->hist_tmp, 0, DDIR_RWDIR_CNT * HIST_NR * sizeof(uint64_t));
		for (s = 0; s < hp->nr_slots && s < fh->nr_ts; s++) {
			const struct thread_stat *ts = &fh->ts[s];
			struct slot_prev *pv = &hp->prev[s];
			uint64_t hd[HIST_NR];

			h_err += ts->total_err;
			for (d = 0; d < DDIR_RWDIR_CNT; d++) {
				const struct ddir_stat *ds = &ts->dir[d];
				uint64_t ios = ds->clat.n >= pv->ios[d] ? ds->clat.n - pv->ios[d] : 0;
				uint64_t bytes = ds->io_bytes >= pv->bytes[d] ?
						 ds->io_bytes - pv->bytes[d] : 0;
				double lsum = ds->clat.mean * (double)ds->clat.n;
				uint64_t *ph = pv->hist + (size_t)d * HIST_NR;
				uint64_t *th = fp->hist_tmp + (size_t)d * HIST_NR;
				unsigned i;

				for (i = 0; i < HIST_NR; i++) {
					hd[i] = ds->clat_hist[i] >= ph[i] ? ds->clat_hist[i] - ph[i] : 0;
					th[i] += hd[i];
					ph[i] = ds->clat_hist[i];
				}
				if (d != DDIR_TRIM || ds->io_bytes)
					io_rec(f, (unsigned)(fh->slot + 1 + s), d, t, ios, bytes,
					       lsum - pv->lat_sum[d], hd, ds->clat.n, ds->io_bytes);
				h_ios[d] += ios;
				h_bytes[d] += bytes;
				h_lat[d] += lsum - pv->lat_sum[d];
				h_tot_ios[d] += ds->clat.n;
				h_tot_bytes[d] += ds->io_bytes;
				pv->ios[d] = ds->clat.n;
				pv->bytes[d] = ds->io_bytes;
				pv->lat_sum[d] = lsum;
			}
			status_rec(f, (unsigned)(fh->slot + 1 + s),
				   fh->state == FLEET_RUNNING ? PHASE_RUN : PHASE_DONE, t,
				   fleet_host_live(fh), ts->total_err, 0, 0, interval_ns);
		}
		for (d = 0; d < DDIR_RWDIR_CNT; d++) {
			uint64_t *th = fp->hist_tmp + (size_t)d * HIST_NR;
			uint64_t *ah = fp->hist_all + (size_t)d * HIST_NR;
			unsigned i;

			if (d != DDIR_TRIM || h_tot_bytes[d])
				io_rec(f, (unsigned)fh->slot, d, t, h_ios[d], h_bytes[d], h_lat[d], th,
				       h_tot_ios[d], h_tot_bytes[d]);
			for (i = 0; i < HIST_NR; i++)
				ah[i] += th[i];
			all_ios[d] += h_ios[d];
			all_bytes[d] += h_bytes[d];
			all_lat[d] += h_lat[d];
			all_tot_ios[d] += h_tot_ios[d];
			all_tot_bytes[d] += h_tot_bytes[d];
			fh->iops[d] = secs > 0 ? (double)h_ios[d] / secs : 0;
			fh->bw[d] = secs > 0 ? (double)h_bytes[d] / secs : 0;
		}
		/* the Hosts view's p99 comes from this tick's summed histogram */
		for (d = 0; d < DDIR_RWDIR_CNT; d++) {
			static const double p99 = 99.0;
			uint64_t v = 0;

			hist_percentiles(fp->hist_tmp + (size_t)d * HIST_NR, &p99, 1, &v);
			fh->p99_ns[d] = clamp32(v);
		}
		fh->errors = h_err;
		phase = fh->state == FLEET_RUNNING ? PHASE_RUN : fh->state < FLEET_RUNNING ?
			PHASE_SETUP : PHASE_DONE;
		status_rec(f, (unsigned)fh->slot, phase, t, fleet_host_live(fh) ? fh->eta.nr_running : 0,
			   h_err + (fh->state == FLEET_FAILED), fh->eta.eta_s, eta_percent(&fh->eta),
			   interval_ns);
		all_err += h_err + (fh->state == FLEET_FAILED);
		if (fleet_host_live(fh) || fh->state < FLEET_RUNNING) {
			any_live = true;
			running += fh->eta.nr_running;
			if (fh->eta.eta_s > eta)
				eta = fh->eta.eta_s;
			if (eta_percent(&fh->eta) < pct)
				pct = eta_percent(&fh->eta);
		}
	}
	for (d = 0; d < DDIR_RWDIR_CNT; d++)
		if (d != DDIR_TRIM || all_tot_bytes[d])
			io_rec(f, LIVE_TOTAL, d, t, all_ios[d], all_bytes[d], all_lat[d],
			       fp->hist_all + (size_t)d * HIST_NR, all_tot_ios[d], all_tot_bytes[d]);
	status_rec(f, LIVE_TOTAL, any_live ? PHASE_RUN : PHASE_DONE, t, running, all_err, eta,
		   any_live ? pct : 100.0f, interval_ns);
	fleet_emit(f, &(struct live_rec){ .type = LIVE_TICK_END, .job = LIVE_TOTAL, .t_ns = t });
	ring_push_batch(&f->ring, fp->recs, (uint32_t)fp->nr_recs);
	fp->nr_recs = 0;
}

