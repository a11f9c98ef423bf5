package main

import (
	"database/sql"
	"fmt"
	"os"

	_ "github.com/go-sql-driver/mysql"
)

// Sends 200 repeated statements as text: interpolateParams=true writes the ? argument into
// the text (COM_QUERY), as the users do.
func main() {
	dsn := fmt.Sprintf("%s:%s@tcp(127.0.0.1:%s)/%s?interpolateParams=true", os.Args[2], os.Getenv("WA_PW"), os.Args[1], os.Args[3])
	db, err := sql.Open("mysql", dsn)
	if err != nil {
		panic(err)
	}
	defer db.Close()
	db.SetMaxOpenConns(1)
	for i := 0; i < 200; i++ {
		var v string
		if err := db.QueryRow("SELECT v FROM t WHERE id = ?", i%10).Scan(&v); err != nil {
			panic(err)
		}
	}
}
