-- A connection's console user: serial consoles on clusters that give them only to users.
ALTER TABLE "proxmox_connections" ADD COLUMN "consoleUsername" TEXT;
ALTER TABLE "proxmox_connections" ADD COLUMN "consoleUserPasswordCipher" TEXT;
