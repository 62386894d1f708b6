package io.github.distlock.sample.shop;

import org.springframework.data.jpa.repository.JpaRepository;
import org.springframework.data.jpa.repository.Modifying;
import org.springframework.data.jpa.repository.Query;

public interface PurchaseHistoryRepository extends JpaRepository<PurchaseHistory, Long> {

	long countByProductName(String productName);

	@Modifying
	@Query("delete from PurchaseHistory h where h.productName = :productName")
	int deleteByProductName(String productName);

}
