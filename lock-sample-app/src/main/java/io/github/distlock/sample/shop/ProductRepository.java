package io.github.distlock.sample.shop;

import java.util.Optional;

import org.springframework.data.jpa.repository.JpaRepository;
import org.springframework.data.jpa.repository.Modifying;
import org.springframework.data.jpa.repository.Query;

public interface ProductRepository extends JpaRepository<Product, Long> {

	Optional<Product> findOneByName(String name);

	/**
	 * Writes the amount a fenced buyer computed, only if no holder with a newer fencing
	 * token wrote since.
	 * @return 1 if written, 0 if a newer token had written (the caller's lock was stale)
	 */
	@Modifying(flushAutomatically = true, clearAutomatically = true)
	@Query("update Product p set p.amount = :amount, p.fence = :token where p.name = :name and p.fence < :token")
	int writeAmountIfFenceOlder(String name, int amount, long token);

	@Modifying(flushAutomatically = true, clearAutomatically = true)
	@Query("update Product p set p.amount = :amount, p.fence = 0 where p.name = :name")
	int resetAmount(String name, int amount);

}
