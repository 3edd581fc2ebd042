/* core/job.c: placeholder, being written */
