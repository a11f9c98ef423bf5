// Sends 200 repeated statements as text: connection.query() formats the values into the SQL.
const mysql = require('mysql2/promise');
(async () => {
  const c = await mysql.createConnection({
    host: '127.0.0.1', port: Number(process.argv[2]), user: process.argv[3],
    password: process.env.WA_PW, database: process.argv[4]});
  for (let i = 0; i < 200; i++) {
    await c.query('SELECT v FROM t WHERE id = ?', [i % 10]);
  }
  await c.end();
})().catch(e => { console.error(e); process.exit(1); });
