-- An access request on top of a grant already held: a viewer asking for
-- modeler keeps its viewer grant (role, not pending) and records the role it
-- asks for here until an admin approves (the grant's role becomes it) or the
-- request is replaced. A request without any grant stays a pending row.
ALTER TABLE grants ADD COLUMN requested_role text;
