ALTER TABLE "fabric_links" DROP CONSTRAINT "fabric_links_plane_same_cluster";
