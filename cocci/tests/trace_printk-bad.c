// Must be reported: trace_printk() left in the code.
static void task_cache_work(struct callback_head *work)
{
	int nr = 0, occ = 1;

	trace_printk("occ: %d nr: %d\n", occ, nr); /* REPORTED */
}
