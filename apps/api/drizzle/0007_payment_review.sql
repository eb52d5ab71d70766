ALTER TABLE "payment_invoices" ADD COLUMN "decision" text;--> statement-breakpoint
ALTER TABLE "payment_invoices" ADD COLUMN "decision_note" text;--> statement-breakpoint
ALTER TABLE "payment_invoices" ADD COLUMN "decided_by" uuid;--> statement-breakpoint
ALTER TABLE "payment_invoices" ADD COLUMN "decided_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "payment_invoices" ADD CONSTRAINT "payment_invoices_decided_by_users_id_fk" FOREIGN KEY ("decided_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payment_invoices" ADD CONSTRAINT "payment_invoices_decision_check" CHECK ("payment_invoices"."decision" in ('activate', 'reject'));--> statement-breakpoint
ALTER TABLE "payment_invoices" ADD CONSTRAINT "payment_invoices_decision_complete" CHECK (("payment_invoices"."decision" is null and "payment_invoices"."decided_at" is null and "payment_invoices"."decided_by" is null)
        or ("payment_invoices"."decision" = 'activate' and "payment_invoices"."decided_at" is not null and "payment_invoices"."state" = 'settled')
        or ("payment_invoices"."decision" = 'reject' and "payment_invoices"."decided_at" is not null and "payment_invoices"."state" = 'failed'));