"""Wire models: pydantic shapes of every protocol Beacon speaks, and no logic."""
