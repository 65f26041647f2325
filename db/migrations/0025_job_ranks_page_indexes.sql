CREATE INDEX "job_ranks_job_problems" ON "job_ranks" USING btree ("job_id",("die_key" is not null),"rank","position");--> statement-breakpoint
CREATE INDEX "job_ranks_job_rank" ON "job_ranks" USING btree ("job_id","rank","position");--> statement-breakpoint
CREATE INDEX "job_ranks_job_server" ON "job_ranks" USING btree ("job_id","server_id","device_id","position");