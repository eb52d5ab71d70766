ALTER TABLE "mail_outbox" ADD COLUMN "first_failed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "mail_outbox" ADD COLUMN "waiting_for_server" boolean DEFAULT false NOT NULL;--> statement-breakpoint
CREATE INDEX "mail_outbox_undeliverable_idx" ON "mail_outbox" USING btree ("created_at") WHERE "mail_outbox"."status" = 'failed';