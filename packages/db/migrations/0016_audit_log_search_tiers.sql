-- Audit search by relevance ranks an entry by the best field class its match needs
-- (docs/decisions.md#audit-search-at-scale): the query matching the action and target alone
-- (weight A) beats matching with the reason too (A, B), which beats needing the metadata (C).
-- Each class's text has an index of its own, so the planner knows how common a term is in it
-- and a class the term is missing from is answered from its index without visiting rows.
CREATE INDEX audit_logs_search_a_idx ON audit_logs USING gin (ts_filter(search, '{a}'));
CREATE INDEX audit_logs_search_ab_idx ON audit_logs USING gin (ts_filter(search, '{a,b}'));
