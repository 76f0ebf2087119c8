-- What a query's target lookup reads beyond the tables of 145_auth_changes.sql
-- (src/query/store.ts findQueryTarget: the version to run, whether it has built
-- materializations, the caller's attribute values), so that the query runner
-- can keep each caller's answer under the same generation as the cached access
-- decisions (src/query/service.ts, src/http/auth_cache.ts). A write of a column
-- that lookup reads adds a row to auth_changes in the writing transaction (and,
-- on the embedded database, notifies: 150_auth_change_notify.sql); writes of
-- other columns (index_status, row counts, timestamps) do not, so index and
-- build runs do not drop every cached decision at each step.
CREATE TRIGGER package_versions_auth_change AFTER INSERT OR DELETE OR TRUNCATE ON package_versions
  FOR EACH STATEMENT EXECUTE FUNCTION note_auth_change();
CREATE TRIGGER package_versions_auth_update AFTER UPDATE OF id, package_id, version_id, archive_status, blob_sha256, created_at ON package_versions
  FOR EACH STATEMENT EXECUTE FUNCTION note_auth_change();
CREATE TRIGGER materializations_auth_change AFTER INSERT OR DELETE OR TRUNCATE ON materializations
  FOR EACH STATEMENT EXECUTE FUNCTION note_auth_change();
CREATE TRIGGER materializations_auth_update AFTER UPDATE OF version, sha256, built_at ON materializations
  FOR EACH STATEMENT EXECUTE FUNCTION note_auth_change();
CREATE TRIGGER attributes_auth_change AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON attributes
  FOR EACH STATEMENT EXECUTE FUNCTION note_auth_change();
CREATE TRIGGER attribute_user_values_auth_change AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON attribute_user_values
  FOR EACH STATEMENT EXECUTE FUNCTION note_auth_change();
CREATE TRIGGER attribute_group_values_auth_change AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON attribute_group_values
  FOR EACH STATEMENT EXECUTE FUNCTION note_auth_change();
