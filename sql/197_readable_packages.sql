-- The packages of one organization a principal may read, in one set-based
-- statement: exactly those with effective_rank(p_kind, p_id, 'package', id) >= 1
-- (005_access_plpgsql.sql), which a search over every package of an environment
-- called once per package. A package is readable by a system administrator, or
-- through a grant (not pending) held by the principal or one of its groups
-- (nested) on the package, its environment or its organization that confers at
-- least viewer on a package (inherit_rank: an organization's admin or modeler).
CREATE FUNCTION readable_packages(p_kind text, p_id uuid, p_org uuid) RETURNS TABLE (package_id uuid)
LANGUAGE sql STABLE AS $$
  WITH held AS (
    SELECT g.resource_kind, g.resource_id
      FROM grants g
     WHERE NOT g.pending
       AND inherit_rank(g.resource_kind, role_rank(g.role), 'package') >= 1
       AND ((g.principal_kind = p_kind AND g.principal_id = p_id)
         OR (g.principal_kind = 'group' AND g.principal_id IN (SELECT group_id FROM principal_groups(p_kind, p_id))))
  ), admin AS (
    SELECT EXISTS (SELECT 1 FROM users WHERE p_kind = 'user' AND id = p_id AND system_admin) AS yes
  )
  SELECT pk.id
    FROM packages pk
    JOIN environments e ON e.id = pk.env_id
   CROSS JOIN admin
   WHERE e.org_id = p_org
     AND (admin.yes OR EXISTS (
           SELECT 1 FROM held h
            WHERE (h.resource_kind = 'organization' AND h.resource_id = e.org_id)
               OR (h.resource_kind = 'environment' AND h.resource_id = e.id)
               OR (h.resource_kind = 'package' AND h.resource_id = pk.id)))
$$;
