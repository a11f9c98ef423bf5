package io.wireadvisor.sql;

/** Session-variable probes: statements a driver or pool sends about the session, not the data. */
public enum ProbeKind { ISOLATION_READ, READ_ONLY_READ, AUTOCOMMIT_SET, ISOLATION_SET, READ_ONLY_SET, SET_NAMES, SHOW_VARIABLES, VARIABLES_READ, SESSION_SET, VALIDATION_QUERY }
