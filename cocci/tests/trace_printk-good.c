// Must stay quiet: a tracepoint instead of trace_printk(); a local named alike.
static void task_cache_work(struct callback_head *work)
{
	int nr = 0, occ = 1, trace_printk_count = 0;

	trace_sched_cache_scan(current, nr, occ);
	trace_printk_count++;
}
