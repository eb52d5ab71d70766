CREATE EXTENSION IF NOT EXISTS pg_trgm;
--> statement-breakpoint
CREATE TABLE "payment_invoices" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"transaction_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"provider" text NOT NULL,
	"invoice_id" text NOT NULL,
	"payment_id" text,
	"pack" text NOT NULL,
	"amount_cents" bigint NOT NULL,
	"state" text DEFAULT 'pending' NOT NULL,
	"raw_status" text DEFAULT 'New' NOT NULL,
	"review_reason" text,
	"payment_url" text NOT NULL,
	"expires_at" timestamp with time zone,
	"last_checked_at" timestamp with time zone,
	"closed_at" timestamp with time zone,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	CONSTRAINT "payment_invoices_provider_check" CHECK ("payment_invoices"."provider" in ('sandbox', 'btcpay', 'nowpayments')),
	CONSTRAINT "payment_invoices_state_check" CHECK ("payment_invoices"."state" in ('pending', 'settled', 'expired', 'failed', 'review')),
	CONSTRAINT "payment_invoices_amount_positive" CHECK ("payment_invoices"."amount_cents" > 0)
);
--> statement-breakpoint
CREATE TABLE "payment_notifications" (
	"provider" text NOT NULL,
	"delivery_key" text NOT NULL,
	"type" text NOT NULL,
	"invoice_id" text,
	"outcome" text NOT NULL,
	"received_at" timestamp with time zone NOT NULL,
	CONSTRAINT "payment_notifications_provider_delivery_key_pk" PRIMARY KEY("provider","delivery_key")
);
--> statement-breakpoint
CREATE TABLE "sandbox_invoices" (
	"id" text PRIMARY KEY NOT NULL,
	"order_id" text NOT NULL,
	"amount_cents" bigint NOT NULL,
	"currency" text NOT NULL,
	"description" text NOT NULL,
	"return_url" text NOT NULL,
	"status" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"closed_at" timestamp with time zone,
	CONSTRAINT "sandbox_invoices_status_check" CHECK ("sandbox_invoices"."status" in ('New', 'Settled', 'Expired'))
);
--> statement-breakpoint
CREATE TABLE "project_assets" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"kind" text NOT NULL,
	"content_type" text NOT NULL,
	"file_name" text NOT NULL,
	"byte_size" integer NOT NULL,
	"variants" jsonb NOT NULL,
	"uploaded_by" uuid NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "project_assets_kind_check" CHECK ("project_assets"."kind" in ('image', 'document'))
);
--> statement-breakpoint
CREATE TABLE "projects" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"owner_id" uuid NOT NULL,
	"title" text NOT NULL,
	"description" text NOT NULL,
	"location" text NOT NULL,
	"type" text NOT NULL,
	"status" text DEFAULT 'available' NOT NULL,
	"images" text[] DEFAULT '{}'::text[] NOT NULL,
	"target_cents" bigint NOT NULL,
	"funded_cents" bigint DEFAULT 0 NOT NULL,
	"roi_basis_points" integer NOT NULL,
	"term_months" integer NOT NULL,
	"min_investment_cents" bigint NOT NULL,
	"start_date" date,
	"end_date" date,
	"details" jsonb NOT NULL,
	"search_text" text GENERATED ALWAYS AS (lower(title || ' ' || description || ' ' || location)) STORED NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	CONSTRAINT "projects_type_check" CHECK ("projects"."type" in ('residential', 'commercial', 'land')),
	CONSTRAINT "projects_status_check" CHECK ("projects"."status" in ('available', 'sold', 'reserved')),
	CONSTRAINT "projects_amounts" CHECK ("projects"."target_cents" >= 0 and "projects"."min_investment_cents" >= 0 and "projects"."min_investment_cents" <= "projects"."target_cents"),
	CONSTRAINT "projects_funded_within_target" CHECK ("projects"."funded_cents" >= 0 and "projects"."funded_cents" <= "projects"."target_cents"),
	CONSTRAINT "projects_roi_term" CHECK ("projects"."roi_basis_points" >= 0 and "projects"."term_months" >= 1)
);
--> statement-breakpoint
CREATE TABLE "seed_runs" (
	"name" text PRIMARY KEY NOT NULL,
	"ran_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "transactions" ADD COLUMN "project_id" uuid;--> statement-breakpoint
ALTER TABLE "payment_invoices" ADD CONSTRAINT "payment_invoices_transaction_id_transactions_id_fk" FOREIGN KEY ("transaction_id") REFERENCES "public"."transactions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payment_invoices" ADD CONSTRAINT "payment_invoices_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "project_assets" ADD CONSTRAINT "project_assets_uploaded_by_users_id_fk" FOREIGN KEY ("uploaded_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "projects" ADD CONSTRAINT "projects_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "payment_invoices_transaction_unique" ON "payment_invoices" USING btree ("transaction_id");--> statement-breakpoint
CREATE UNIQUE INDEX "payment_invoices_provider_invoice_unique" ON "payment_invoices" USING btree ("provider","invoice_id");--> statement-breakpoint
CREATE INDEX "payment_invoices_pending_idx" ON "payment_invoices" USING btree ("created_at") WHERE "payment_invoices"."state" = 'pending';--> statement-breakpoint
CREATE INDEX "payment_invoices_review_idx" ON "payment_invoices" USING btree ("created_at") WHERE "payment_invoices"."state" = 'review';--> statement-breakpoint
CREATE INDEX "projects_created_idx" ON "projects" USING btree ("created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "projects_type_status_idx" ON "projects" USING btree ("type","status");--> statement-breakpoint
CREATE INDEX "projects_search_trgm_idx" ON "projects" USING gin ("search_text" gin_trgm_ops);--> statement-breakpoint
ALTER TABLE "transactions" ADD CONSTRAINT "transactions_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "transactions_project_idx" ON "transactions" USING btree ("project_id") WHERE "transactions"."project_id" is not null;--> statement-breakpoint
ALTER TABLE "transactions" ADD CONSTRAINT "transactions_investment_project" CHECK (("transactions"."type" = 'investment') = ("transactions"."project_id" is not null));--> statement-breakpoint
-- The price of a pack replaced by "Switch Plan" leaves the member's pack account for this platform account.
INSERT INTO "ledger_accounts" ("code", "kind", "allows_negative") VALUES ('platform:packs_retired', 'platform_packs_retired', true);
