CREATE TABLE `portal_member_guard` (
	`membership_id` text NOT NULL,
	CONSTRAINT "portal_member_not_confirmed" CHECK(0)
);
