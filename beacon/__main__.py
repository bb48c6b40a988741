from beacon.cli.main import main

main()
