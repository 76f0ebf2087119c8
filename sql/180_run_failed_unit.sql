-- Which unit made a run fail, as data: the position of the first unit that
-- failed (the one the run's `error` reports), written with the run's `failed`
-- state (src/runs/store.ts finishRun). The runs API decides from that unit's
-- model path and source whether a caller may read the run's error (it may
-- quote rows of a source the caller may not query), instead of parsing the
-- error text. Null for a run that did not fail, or failed for a reason that
-- is no unit's (the node stopped, the version vanished, the retrieval index).
ALTER TABLE runs ADD COLUMN failed_unit int;
ALTER TABLE runs ADD CONSTRAINT runs_failed_unit_fkey
  FOREIGN KEY (id, failed_unit) REFERENCES run_units (run, position);
