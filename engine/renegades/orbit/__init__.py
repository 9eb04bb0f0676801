"""Ships in orbit: movement, ship combat and its bonuses, ship abilities, salvage, the med bay."""
