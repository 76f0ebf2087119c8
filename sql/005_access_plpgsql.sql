-- effective_rank as PL/pgSQL: the same rules as 002_access.sql, but it locates the
-- resource's ancestors with one branch per kind, returns early, and its plans are
-- cached per session (the SQL-language version was planned on every call).
CREATE OR REPLACE FUNCTION effective_rank(p_kind text, p_id uuid, r_kind text, r_id uuid) RETURNS int
LANGUAGE plpgsql STABLE AS $$
DECLARE
  v_org uuid;
  v_env uuid;
  v_pkg uuid;
  v_ws uuid;
  v_doc uuid;
  v_group uuid;
  v_owner uuid;
  g_ids uuid[];
  best int;
BEGIN
  IF r_kind = 'organization' THEN
    SELECT id INTO v_org FROM organizations WHERE id = r_id;
  ELSIF r_kind = 'environment' THEN
    SELECT id, org_id INTO v_env, v_org FROM environments WHERE id = r_id;
  ELSIF r_kind = 'package' THEN
    SELECT p.id, e.id, e.org_id INTO v_pkg, v_env, v_org FROM packages p JOIN environments e ON e.id = p.env_id WHERE p.id = r_id;
  ELSIF r_kind = 'workspace' THEN
    SELECT id, org_id, owner_user_id INTO v_ws, v_org, v_owner FROM workspaces WHERE id = r_id;
  ELSIF r_kind = 'document' THEN
    SELECT d.id, w.id, w.org_id, w.owner_user_id INTO v_doc, v_ws, v_org, v_owner
      FROM documents d JOIN workspaces w ON w.id = d.workspace_id WHERE d.id = r_id;
  ELSIF r_kind = 'group' THEN
    SELECT id, org_id INTO v_group, v_org FROM groups WHERE id = r_id;
  END IF;
  IF v_org IS NULL THEN
    RETURN 0;
  END IF;
  -- a personal workspace (and its documents) belongs to its owner alone
  IF v_owner IS NOT NULL THEN
    RETURN CASE WHEN p_kind = 'user' AND p_id = v_owner THEN 3 ELSE 0 END;
  END IF;
  IF p_kind = 'user' AND EXISTS (SELECT 1 FROM users WHERE id = p_id AND system_admin) THEN
    RETURN 3;
  END IF;
  SELECT coalesce(array_agg(group_id), '{}') INTO g_ids FROM principal_groups(p_kind, p_id);
  SELECT coalesce(max(inherit_rank(g.resource_kind, role_rank(g.role), r_kind)), 0) INTO best
    FROM grants g
   WHERE NOT g.pending
     AND ((g.principal_kind = p_kind AND g.principal_id = p_id)
       OR (g.principal_kind = 'group' AND g.principal_id = ANY (g_ids)))
     AND ((g.resource_kind = 'organization' AND g.resource_id = v_org)
       OR (g.resource_kind = 'environment' AND g.resource_id = v_env)
       OR (g.resource_kind = 'package' AND g.resource_id = v_pkg)
       OR (g.resource_kind = 'workspace' AND g.resource_id = v_ws)
       OR (g.resource_kind = 'document' AND g.resource_id = v_doc));
  IF best >= 3 THEN
    RETURN best;
  END IF;
  -- belonging to any group of the organization makes a member of it
  IF r_kind = 'organization' AND best < 1 AND EXISTS (SELECT 1 FROM groups WHERE org_id = v_org AND id = ANY (g_ids)) THEN
    best := 1;
  END IF;
  -- a group: its admins manage it, its (transitive) members and the organization's members see it
  IF r_kind = 'group' THEN
    IF p_kind = 'user' AND EXISTS (SELECT 1 FROM group_members
        WHERE group_id = v_group AND member_user_id = p_id AND status = 'admin') THEN
      RETURN 3;
    END IF;
    IF v_group = ANY (g_ids) THEN
      best := greatest(best, 1);
    END IF;
    IF best < 1 AND EXISTS (SELECT 1 FROM grants g
        WHERE g.resource_kind = 'organization' AND g.resource_id = v_org AND NOT g.pending
          AND ((g.principal_kind = p_kind AND g.principal_id = p_id)
            OR (g.principal_kind = 'group' AND g.principal_id = ANY (g_ids)))) THEN
      best := 1;
    END IF;
  END IF;
  RETURN best;
END $$;
