ALTER TABLE "projects" ADD COLUMN "funded_before_cents" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "projects" ADD CONSTRAINT "projects_funded_before_within_funded" CHECK ("projects"."funded_before_cents" >= 0 and "projects"."funded_before_cents" <= "projects"."funded_cents");--> statement-breakpoint
-- Sample projects seeded before this migration: the sold one is fully funded and the reserved one mostly, as a
-- fresh seed now makes them (modules/projects/seed.ts); only rows still as the seed left them are touched.
UPDATE "projects" SET "funded_before_cents" = "target_cents" - "funded_cents", "funded_cents" = "target_cents"
  WHERE "title" = 'Maple Street Lofts' AND "status" = 'sold' AND "funded_before_cents" = 0 AND "target_cents" = 165000000;--> statement-breakpoint
UPDATE "projects" SET "funded_before_cents" = 765000000, "funded_cents" = "funded_cents" + 765000000
  WHERE "title" = 'Summit Logistics Park' AND "status" = 'reserved' AND "funded_before_cents" = 0 AND "target_cents" = 850000000
    AND "funded_cents" + 765000000 <= "target_cents";
