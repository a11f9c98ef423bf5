/**
 * The MySQL client/server protocol facts both collectors need, in plain Java 8 with no
 * dependencies: little-endian integers, length-encoded integers, the query-attributes prefix of
 * COM_QUERY. The agent reads these from the driver's byte arrays, the proxy from the bytes it
 * forwards; one parser each, with one set of edge rules.
 *
 * @see <a href="https://dev.mysql.com/doc/dev/mysql-server/latest/page_protocol_basic_dt_integers.html">
 *     Integer types</a>
 */
package io.wireadvisor.wire;
