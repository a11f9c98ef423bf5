package io.wireadvisor.samples.spring;

import java.net.URI;
import java.util.List;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * The REST API:
 *
 * <ul>
 *   <li>{@code GET /accounts/{id}}: the account and its balance;
 *   <li>{@code GET /customers/{id}/accounts}: the customer's accounts;
 *   <li>{@code GET /accounts/{id}/ledger?limit=20}: its latest ledger lines;
 *   <li>{@code POST /transfers} with {@code {"fromAccountId":1,"toAccountId":2,"amount":"10.00"}}:
 *       201 with the transfer and both balances; 422 when refused, 404 for an unknown account.
 * </ul>
 */
@RestController
public class BankController {
  private final BankService bank;

  BankController(BankService bank) {
    this.bank = bank;
  }

  @GetMapping("/accounts/{id}")
  public AccountView account(@PathVariable long id) {
    return bank.account(id);
  }

  @GetMapping("/customers/{id}/accounts")
  public List<AccountView> accountsOf(@PathVariable long id) {
    return bank.accountsOf(id);
  }

  @GetMapping("/accounts/{id}/ledger")
  public List<LedgerLine> ledger(@PathVariable long id, @RequestParam(defaultValue = "20") int limit) {
    return bank.ledger(id, limit);
  }

  @PostMapping("/transfers")
  public ResponseEntity<TransferResult> transfer(@RequestBody TransferRequest request) {
    TransferResult result = bank.transfer(request);
    return ResponseEntity.created(URI.create("/transfers/" + result.transferId())).body(result);
  }

  @ExceptionHandler(BankException.class)
  ProblemDetail refused(BankException e) {
    return ProblemDetail.forStatusAndDetail(e.status(), e.getMessage());
  }
}
