-- The worker claims each queue's oldest due jobs separately (src/async/jobs: a backlog in one
-- queue must not hold up another): index by queue, then due time.
CREATE INDEX "async_jobs_queue_run_at_idx" ON "async_jobs"("queue", "run_at");
