-- The source a run unit builds from, as data: a table unit's target is the
-- source's name and an index unit's is `source.dimension`, but a source name
-- may itself hold a dot (`pay.roll`, backquoted in Malloy), so the runs API,
-- which decides from the source who may read a unit's counts and error, must
-- not split the target. Rows written before this column: the target's part
-- before the first dot (what the API used until now).
ALTER TABLE run_units ADD COLUMN source_name text;
UPDATE run_units SET source_name = CASE WHEN kind = 'table' THEN target ELSE split_part(target, '.', 1) END;
ALTER TABLE run_units ALTER COLUMN source_name SET NOT NULL;
