-- The access core: one function answers "what is this principal's effective rank
-- on this resource", recursive over nested groups and inheriting from the levels
-- above. Ranks: 3 = admin / manager / editor, 2 = modeler, 1 = viewer / member,
-- 0 = nothing (the resource is invisible to the principal).

CREATE FUNCTION role_rank(role text) RETURNS int LANGUAGE sql IMMUTABLE AS $$
  SELECT CASE role
    WHEN 'admin' THEN 3 WHEN 'manager' THEN 3 WHEN 'editor' THEN 3
    WHEN 'modeler' THEN 2
    WHEN 'viewer' THEN 1 WHEN 'member' THEN 1
    ELSE 0 END
$$;

-- Rank that a grant of rank r on a level `from_kind` confers on a resource of
-- kind `to_kind` below it (or on the same level).
CREATE FUNCTION inherit_rank(from_kind text, r int, to_kind text) RETURNS int LANGUAGE sql IMMUTABLE AS $$
  SELECT CASE
    WHEN from_kind = to_kind THEN r
    WHEN from_kind = 'system' THEN r
    WHEN from_kind = 'organization' AND r = 3 THEN 3
    WHEN from_kind = 'organization' AND r = 2 AND to_kind IN ('environment', 'package') THEN 2
    WHEN from_kind = 'environment' AND to_kind = 'package' THEN r
    WHEN from_kind = 'workspace' AND to_kind = 'document' THEN r
    ELSE 0 END
$$;

-- The groups a principal acts through: for a user the groups it is a member of,
-- for a group (API key) the group itself; both transitively through nesting.
CREATE FUNCTION principal_groups(p_kind text, p_id uuid) RETURNS TABLE (group_id uuid) LANGUAGE sql STABLE AS $$
  WITH RECURSIVE g(id) AS (
      SELECT p_id WHERE p_kind = 'group'
    UNION
      SELECT gm.group_id FROM group_members gm WHERE p_kind = 'user' AND gm.member_user_id = p_id
    UNION
      SELECT gm.group_id FROM group_members gm JOIN g ON gm.member_group_id = g.id
  )
  SELECT id FROM g
$$;

-- The organization a resource belongs to.
CREATE FUNCTION resource_org(r_kind text, r_id uuid) RETURNS uuid LANGUAGE sql STABLE AS $$
  SELECT CASE r_kind
    WHEN 'organization' THEN (SELECT id FROM organizations WHERE id = r_id)
    WHEN 'environment' THEN (SELECT org_id FROM environments WHERE id = r_id)
    WHEN 'package' THEN (SELECT e.org_id FROM packages p JOIN environments e ON e.id = p.env_id WHERE p.id = r_id)
    WHEN 'workspace' THEN (SELECT org_id FROM workspaces WHERE id = r_id)
    WHEN 'document' THEN (SELECT w.org_id FROM documents d JOIN workspaces w ON w.id = d.workspace_id WHERE d.id = r_id)
    WHEN 'group' THEN (SELECT org_id FROM groups WHERE id = r_id)
  END
$$;

-- The resource and the levels above it that can carry grants.
CREATE FUNCTION resource_chain(r_kind text, r_id uuid) RETURNS TABLE (kind text, id uuid) LANGUAGE sql STABLE AS $$
  SELECT 'package', p.id FROM packages p WHERE r_kind = 'package' AND p.id = r_id
  UNION ALL
  SELECT 'environment', e.id FROM environments e
   WHERE (r_kind = 'environment' AND e.id = r_id)
      OR (r_kind = 'package' AND e.id = (SELECT env_id FROM packages WHERE id = r_id))
  UNION ALL
  SELECT 'document', d.id FROM documents d WHERE r_kind = 'document' AND d.id = r_id
  UNION ALL
  SELECT 'workspace', w.id FROM workspaces w
   WHERE (r_kind = 'workspace' AND w.id = r_id)
      OR (r_kind = 'document' AND w.id = (SELECT workspace_id FROM documents WHERE id = r_id))
  UNION ALL
  SELECT 'group', g.id FROM groups g WHERE r_kind = 'group' AND g.id = r_id
  UNION ALL
  SELECT 'organization', o.id FROM organizations o WHERE o.id = resource_org(r_kind, r_id)
$$;

-- Effective rank of a principal ('user' or 'group') on a resource.
CREATE FUNCTION effective_rank(p_kind text, p_id uuid, r_kind text, r_id uuid) RETURNS int LANGUAGE sql STABLE AS $$
  WITH pg AS (SELECT group_id FROM principal_groups(p_kind, p_id)),
  principals(kind, id) AS (
    SELECT p_kind, p_id
    UNION ALL
    SELECT 'group', group_id FROM pg WHERE NOT (p_kind = 'group' AND group_id = p_id)
  ),
  chain AS (SELECT kind, id FROM resource_chain(r_kind, r_id)),
  personal AS (
    SELECT w.owner_user_id FROM workspaces w JOIN chain c ON c.kind = 'workspace' AND c.id = w.id
     WHERE w.owner_user_id IS NOT NULL
  )
  SELECT CASE
    WHEN NOT EXISTS (SELECT 1 FROM chain WHERE kind = r_kind) THEN 0
    WHEN EXISTS (SELECT 1 FROM personal) THEN
      CASE WHEN p_kind = 'user' AND EXISTS (SELECT 1 FROM personal WHERE owner_user_id = p_id) THEN 3 ELSE 0 END
    WHEN p_kind = 'user' AND EXISTS (SELECT 1 FROM users WHERE id = p_id AND system_admin) THEN 3
    ELSE greatest(
      coalesce((
        SELECT max(inherit_rank(g.resource_kind, role_rank(g.role), r_kind))
          FROM grants g
          JOIN chain c ON g.resource_kind = c.kind AND g.resource_id = c.id
          JOIN principals pr ON pr.kind = g.principal_kind AND pr.id = g.principal_id
         WHERE NOT g.pending), 0),
      -- belonging to any group of the organization makes a member of it
      CASE WHEN r_kind = 'organization'
            AND EXISTS (SELECT 1 FROM groups gr JOIN pg ON gr.id = pg.group_id WHERE gr.org_id = r_id)
           THEN 1 ELSE 0 END,
      -- a group: its admins manage it, its (transitive) members see it
      CASE WHEN r_kind = 'group' THEN greatest(
             CASE WHEN p_kind = 'user' AND EXISTS (SELECT 1 FROM group_members gm
                   WHERE gm.group_id = r_id AND gm.member_user_id = p_id AND gm.status = 'admin') THEN 3 ELSE 0 END,
             CASE WHEN EXISTS (SELECT 1 FROM pg WHERE group_id = r_id) THEN 1 ELSE 0 END,
             CASE WHEN EXISTS (SELECT 1 FROM grants g JOIN principals pr ON pr.kind = g.principal_kind AND pr.id = g.principal_id
                   WHERE g.resource_kind = 'organization' AND g.resource_id = resource_org('group', r_id) AND NOT g.pending)
                  THEN 1 ELSE 0 END)
           ELSE 0 END)
  END
$$;
