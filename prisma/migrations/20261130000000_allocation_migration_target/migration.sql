-- While an instance migrates, its allocation is held on the target node too.
ALTER TABLE "node_allocations" ADD COLUMN "targetNodeId" TEXT;

CREATE INDEX "node_allocations_targetNodeId_idx" ON "node_allocations"("targetNodeId");

ALTER TABLE "node_allocations" ADD CONSTRAINT "node_allocations_targetNodeId_fkey" FOREIGN KEY ("targetNodeId") REFERENCES "nodes"("id") ON DELETE SET NULL ON UPDATE CASCADE;
