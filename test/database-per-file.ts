import { registerDatabasePerFile } from "./database";

registerDatabasePerFile();
