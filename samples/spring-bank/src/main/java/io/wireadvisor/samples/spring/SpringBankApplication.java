package io.wireadvisor.samples.spring;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;

/**
 * A small bank REST service in Spring Boot's default data stack (Spring Data JPA over HikariCP
 * and MySQL Connector/J), the application wire-advisor is most often pointed at. Its database
 * is whatever {@code spring.datasource.url} names; it creates its tables there on start.
 */
@SpringBootApplication
public class SpringBankApplication {
  public static void main(String[] args) {
    SpringApplication.run(SpringBankApplication.class, args);
  }
}
