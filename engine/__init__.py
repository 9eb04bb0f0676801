"""Pure, synchronous rules engines. Nothing here touches Discord, SQL, asyncio or images."""
