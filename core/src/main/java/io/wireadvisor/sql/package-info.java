/**
 * SQL classification for the capture hot path: a statement's normalized shape (digest), kind,
 * tables read and written, and whether it is driver/pool session chatter.
 *
 * <p>Entry point: {@link io.wireadvisor.sql.SqlClassifier} (stateless; the collectors call it once
 * per text they have not seen and keep the result with the shape). The rest of the package is the
 * lexer and the small passes over its tokens.
 */
package io.wireadvisor.sql;
