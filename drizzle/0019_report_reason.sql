-- The owner's optional reason for a report (decision `reported`): plain text of at most 140 characters, held to the
-- rules of the note to the owner by the API; null when none was given or for any other decision.
ALTER TABLE "consents" ADD COLUMN "reason" text;
