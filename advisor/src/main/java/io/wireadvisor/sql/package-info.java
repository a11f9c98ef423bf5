/**
 * SQL classification for the capture hot path: a statement's normalized shape (digest), kind,
 * tables read and written, and whether it is driver/pool session chatter.
 *
 * <p>Entry points: {@link io.wireadvisor.sql.SqlClassifier} (stateless) and
 * {@link io.wireadvisor.sql.ClassificationCache} (bounded, for repeated texts). The rest of the
 * package is the lexer and the small passes over its tokens.
 */
package io.wireadvisor.sql;
