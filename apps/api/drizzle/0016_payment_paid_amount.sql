-- What arrived for an invoice (amount and coin), as the provider reports it, shown beside what was asked.
ALTER TABLE "payment_invoices" ADD COLUMN "paid_amount" numeric;--> statement-breakpoint
ALTER TABLE "payment_invoices" ADD COLUMN "paid_currency" text;--> statement-breakpoint
ALTER TABLE "payment_invoices" ADD CONSTRAINT "payment_invoices_paid_complete" CHECK (("payment_invoices"."paid_amount" is null and "payment_invoices"."paid_currency" is null) or ("payment_invoices"."paid_amount" >= 0 and "payment_invoices"."paid_currency" is not null));