CREATE TABLE "membership_reminders" (
	"membership_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"sent_at" timestamp with time zone NOT NULL,
	CONSTRAINT "membership_reminders_membership_id_kind_pk" PRIMARY KEY("membership_id","kind"),
	CONSTRAINT "membership_reminders_kind_check" CHECK ("membership_reminders"."kind" in ('ending_soon', 'ended'))
);
--> statement-breakpoint
ALTER TABLE "membership_reminders" ADD CONSTRAINT "membership_reminders_membership_id_memberships_id_fk" FOREIGN KEY ("membership_id") REFERENCES "public"."memberships"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "memberships_active_ends_idx" ON "memberships" USING btree ("ends_at") WHERE "memberships"."status" = 'active';
--> statement-breakpoint
-- The mails of a membership's end, once each (jobs/membership-end.ts): the primary key refuses a second
-- "ends in N days" or "has ended" for the same membership, whatever number of servers or reruns try. The
-- partial index lets the job's sweep (every 15 minutes) read only the active memberships near their end.
