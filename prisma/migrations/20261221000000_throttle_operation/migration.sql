-- A traffic throttle begun or ended is an instance operation (throttle, unthrottle) with its own status.
ALTER TYPE "InstanceStatus" ADD VALUE 'updating_network';
