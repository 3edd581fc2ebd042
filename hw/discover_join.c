/*
 * discover_join.c - one controller per card: a controller a vendor tool
 * reported (ssacli, storcli, ...) is joined to the sysfs controller at the
 * same PCI address. sysfs keeps what only the kernel knows (id, driver,
 * NUMA node, PCIe link, slot name) so block devices stay linked; the vendor
 * tool gives what only it knows (arrays, logical and physical drives, mode,
 * health, board name, serial, firmware) and replaces the logical volumes
 * discovery could only guess from sysfs.
 *
 * Never prints.
 */
#include "discover_int.h"
#include "pd_index.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/*
 * "0000:05:00.0" (sysfs, ssacli), "05:00.0" (lspci), "00:64:00:00" (storcli:
 * hex domain:bus:device:function) -> "0000:64:00.0". false when none of these.
 */
static bool pci_canon(const char *s, char *out, size_t len)
{
	unsigned dom = 0, bus, dev, fn;
	char tail;

	if (!s)
		return false;
	if (sscanf(s, "%x:%x:%x.%x%c", &dom, &bus, &dev, &fn, &tail) != 4 &&
	    sscanf(s, "%x:%x:%x:%x%c", &dom, &bus, &dev, &fn, &tail) != 4) {
		dom = 0;
		if (sscanf(s, "%x:%x.%x%c", &bus, &dev, &fn, &tail) != 3)
			return false;
	}
	if (bus > 0xff || dev > 0x1f || fn > 7 || dom > 0xffff)
		return false;
	snprintf(out, len, "%04x:%02x:%02x.%x", dom, bus, dev, fn);
	return true;
}

static void take_str(char **dst, char **src, bool prefer_src)
{
	if (*src && (prefer_src || !*dst)) {
		free(*dst);
		*dst = *src;
		*src = NULL;
	}
}

/* Moves vendor controller v into sysfs controller s; v keeps only what s already had. */
static void join(struct inv_controller *s, struct inv_controller *v)
{
	/* the volumes guessed from sysfs give way to the tool's real arrays and drives */
	if (v->nr_arrays || v->nr_unassigned || v->nr_passthrough) {
		struct inv_controller guessed = { 0 };

		guessed.arrays = s->arrays;
		guessed.nr_arrays = s->nr_arrays;
		guessed.unassigned = s->unassigned;
		guessed.nr_unassigned = s->nr_unassigned;
		guessed.passthrough = s->passthrough;
		guessed.nr_passthrough = s->nr_passthrough;
		s->arrays = v->arrays;
		s->nr_arrays = v->nr_arrays;
		s->unassigned = v->unassigned;
		s->nr_unassigned = v->nr_unassigned;
		s->passthrough = v->passthrough;
		s->nr_passthrough = v->nr_passthrough;
		v->arrays = NULL;
		v->unassigned = v->passthrough = NULL;
		v->nr_arrays = v->nr_unassigned = v->nr_passthrough = 0;
		inv_controller_release(&guessed);
		pd_index_forget(s);	/* its drives are other drives now */
	}
	/* the board's own name ("Smart Array P440ar") beats the chip's */
	take_str(&s->model, &v->model, true);
	take_str(&s->serial, &v->serial, true);
	take_str(&s->firmware, &v->firmware, true);
	take_str(&s->mode, &v->mode, true);
	take_str(&s->slot, &v->slot, false);
	if (v->status != INV_UNKNOWN) {
		s->status = v->status;
		free(s->status_text);
		s->status_text = v->status_text;
		v->status_text = NULL;
	}
	/* the source names who told the health and the arrays */
	take_str(&s->source, &v->source, true);
}

void discover_join_vendor(struct inventory *inv)
{
	size_t i = 0;

	while (i < inv->nr_controllers) {
		struct inv_controller *v = &inv->controllers[i];
		char vp[32], sp[32];
		size_t k;

		if (!v->source || !strcmp(v->source, "sysfs") || !pci_canon(v->pci, vp, sizeof(vp))) {
			i++;
			continue;
		}
		for (k = 0; k < inv->nr_controllers; k++) {
			struct inv_controller *s = &inv->controllers[k];

			if (k != i && s->source && !strcmp(s->source, "sysfs") &&
			    pci_canon(s->pci, sp, sizeof(sp)) && !strcmp(sp, vp))
				break;
		}
		if (k == inv->nr_controllers) {
			i++;
			continue;
		}
		join(&inv->controllers[k], v);
		/* drop the emptied vendor controller, keeping the order of the rest */
		inv_controller_release(v);
		memmove(v, v + 1, (inv->nr_controllers - i - 1) * sizeof(*v));
		inv->nr_controllers--;
	}
}
