"""Which fees a way of acting on a region owes (``WarcraftGame.fees``): Harmony, the Aegis of Aggramar
and Marshdweller each name what they are owed for, and each way of attacking or removing tokens
says which of them apply."""

CONQUEST = ("harmony", "aegis", "marsh")  # a conquest, by any means (Champion, Doomhammer, Ashes...)
ATTACK = ("harmony", "aegis")  # a conquest attempt declared; a power forcing a token's removal
POWER = ("aegis",)  # a power acting on a region without removing a token (theft, placing a Bomb)
